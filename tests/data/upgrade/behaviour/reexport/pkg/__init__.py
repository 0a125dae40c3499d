from .config import HOST
