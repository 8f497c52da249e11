// config module
