"""Errors of the JAX front end (the tools' errors are re-exported)."""

from ..tools import StrataCompileError, ToolNotFoundError  # noqa: F401


class StrataJaxError(Exception):
    """The base of the JAX front end's own errors."""


class UnsupportedPrimitiveError(StrataJaxError, NotImplementedError):
    """A traced function uses a primitive (or a form of one) that the front
    end does not convert. Names the primitive, the function and, when
    JAX recorded it, the source line the primitive was traced from."""

    def __init__(self, primitive, function=None, source=None, reason=None):
        self.primitive, self.function, self.source, self.reason = (primitive, function, source,
                                                                   reason)
        # An argument, a result or a constant is named as it is ("argument
        # 0"); a primitive by its name.
        what = primitive if " " in primitive else f"primitive '{primitive}'"
        msg = f"strata.jax: unsupported {what}"
        if reason:
            msg += f" ({reason})"
        if function:
            msg += f" in function '{function}'"
        if source:
            msg += f"\n  at {source}"
        super().__init__(msg)


class ConversionError(StrataJaxError, RuntimeError):
    """An internal inconsistency of the converter (a lowering produced a
    type JAX does not expect): a bug to report with the function."""
