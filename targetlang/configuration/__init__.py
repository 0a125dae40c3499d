"""The configuration tools, one module each: ``backends`` (executor and runtime), ``config``
(the compilation configuration), ``views``, ``architecture``, ``components`` and ``presets``
(docs/configuration.md). Their main classes are also names of ``targetlang`` itself."""
