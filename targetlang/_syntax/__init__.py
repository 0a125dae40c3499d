"""The syntax stage: the grammars' parsers, AST nodes and TVM's text rules."""
