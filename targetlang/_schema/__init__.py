"""The schema stage: attribute types, the dialects' facts and every data file's loader."""
