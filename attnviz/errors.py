"""The error attnviz raises for input it refuses; its message says why and what to do."""


class InputError(ValueError):
    """A sentence that cannot be translated (empty, too long); the message says why."""
