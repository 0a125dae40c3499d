"""The configuration tools: backends (executor and runtime), config (the compilation
configuration), views, architecture, components and presets, each at its public path
``targetlang.NAME`` as well (docs/configuration.md)."""
