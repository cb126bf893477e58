"""Errors of the PyTorch front end (the tools' errors are re-exported)."""

from ..tools import StrataCompileError, ToolNotFoundError  # noqa: F401


class UnsupportedOperatorError(NotImplementedError):
    """A program uses an operator (or a form of one) that Strata's front end
    does not convert. Names the operator, the module where it was traced
    and, when known, the source line."""

    def __init__(self, op, module=None, module_type=None, source=None, reason=None):
        self.op, self.module, self.module_type, self.source = op, module, module_type, source
        self.reason = reason
        msg = f"strata.torch: unsupported operator {op}"
        if reason:
            msg += f" ({reason})"
        if module is not None:
            where = f"'{module}'" if module else "the top-level module"
            msg += f" in module {where}" + (f" ({module_type})" if module_type else "")
        if source:
            msg += f"\n  {source}"
        super().__init__(msg)


class ConversionError(RuntimeError):
    """An internal inconsistency of the converter (a lowering produced a
    type PyTorch does not expect): a bug to report with the model."""
