"""One package per game family; each registers its games with `app.engine.registry.register`."""
