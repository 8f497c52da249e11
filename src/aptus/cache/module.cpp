// placeholder until the cache module has sources
