import contextvars

ACTIVE = contextvars.ContextVar("active", default=None)
