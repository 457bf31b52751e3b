// CairnCore: records, codec, exit codes, paths, configuration, the engine.
