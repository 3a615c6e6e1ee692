"""The exception raised for failures that libecgemm or the CUDA runtime report."""

from __future__ import annotations

from typing import Optional

# netlib's 1-based positions of SGEMM's arguments, as ecgemm_get_last_error_arg reports them;
# the batched calls add 14..17 (include/ecgemm.h).
ARGUMENT_NAMES = {1: "transa", 2: "transb", 3: "m", 4: "n", 5: "k", 6: "alpha", 7: "A", 8: "lda",
                  9: "B", 10: "ldb", 11: "beta", 12: "C", 13: "ldc", 14: "strideA",
                  15: "strideB", 16: "strideC", 17: "batch_count"}


class EcgemmError(RuntimeError):
    """A failure reported by libecgemm, or by the CUDA runtime on its behalf.

    Bad Python arguments raise ``TypeError`` or ``ValueError`` before anything
    reaches the library; an ``EcgemmError`` means the library or the GPU refused.

    Parameters
    ----------
    status : str
        Name of the ``ecgemmStatus_t`` enumerator, e.g. ``"ECGEMM_STATUS_NO_DEVICE"``.
    message : str
        What went wrong, in words.
    arg : int, optional
        For ``ECGEMM_STATUS_INVALID_VALUE`` from ``ecgemm_sgemm``: netlib's
        1-based position of the first bad argument (8 is ``lda``).

    Attributes
    ----------
    status : str
    message : str
    arg : int or None
    arg_name : str or None
        The bad argument's name (``"lda"``) when `arg` is set.
    """

    def __init__(self, status: str, message: str, arg: Optional[int] = None) -> None:
        self.status = status
        self.message = message
        self.arg = arg
        text = f"{status}: {message}"
        if arg:
            text += f" (argument {arg}, {ARGUMENT_NAMES.get(arg, 'unknown')})"
        super().__init__(text)

    @property
    def arg_name(self) -> Optional[str]:
        return ARGUMENT_NAMES.get(self.arg) if self.arg else None

    def __reduce__(self):
        # The default pickles self.args, which is the formatted text only.
        return (type(self), (self.status, self.message, self.arg))
