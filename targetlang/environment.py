"""What TVM detected from the machine, made explicit: the ``environment`` of ``parse``."""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Environment"]


@dataclass(frozen=True, slots=True)
class Environment:
    """The machine-dependent values TVM 0.21 filled in while reading a target.

    ``None`` for a field means "not detected": the value is left out, as ``parse`` does
    with ``environment=None``. Immutable and hashable; equal when the fields are.
    """

    #: LLVM's host triple: the ``mtriple`` of an ``llvm`` target that has neither
    #: ``-mtriple`` nor ``-mcpu``.
    system_triple: str | None = None
    #: ``sm_XX`` of the first CUDA GPU, for ``cuda -arch`` and ``nvptx -mcpu`` when they are
    #: not given (TVM's fallback without a GPU is ``sm_50``).
    cuda_arch: str | None = None
    #: ``gfxNNN`` of the first ROCm GPU, for ``rocm -mcpu`` (TVM's fallback: ``gfx900``).
    rocm_arch: str | None = None
    #: ROCm's API version; below 305 TVM adds ``-mattr=-code-object-v3``.
    rocm_api_version: int | None = None
    #: True when ``cuda_arch`` is TVM's fallback on a machine without a CUDA GPU, not a
    #: GPU's (TVM TIRx fills in no ``arch`` there).
    cuda_arch_fallback: bool = False
    _hash: int = field(init=False, repr=False, compare=False)
    #: the fields as a tuple: parse()'s memo key (hashed in C, where this class's __hash__
    #: would be a Python call on every warm read)
    _key: tuple[str | None, str | None, str | None, int | None, bool] = field(
        init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        key = (self.system_triple, self.cuda_arch, self.rocm_arch, self.rocm_api_version,
               self.cuda_arch_fallback)
        object.__setattr__(self, "_key", key)
        object.__setattr__(self, "_hash", hash(key))

    def __hash__(self) -> int:
        return self._hash

    @classmethod
    def no_gpu(cls, system_triple: str = "x86_64-unknown-linux-gnu") -> Environment:
        """Exactly what TVM 0.21 fills in on a machine without GPUs."""
        return cls(system_triple=system_triple, cuda_arch="sm_50", rocm_arch="gfx900",
                   rocm_api_version=305, cuda_arch_fallback=True)

    @classmethod
    def detect(cls) -> Environment:
        """The local machine: its triple, and the first NVIDIA GPU's arch if ``nvidia-smi`` sees one."""
        cuda_arch = _nvidia_arch()
        return cls(system_triple=_system_triple(), cuda_arch=cuda_arch or "sm_50",
                   rocm_arch="gfx900", rocm_api_version=305,
                   cuda_arch_fallback=cuda_arch is None)


def _system_triple() -> str:
    """LLVM's spelling of this machine's triple (``x86_64-unknown-linux-gnu``)."""
    import platform

    machine = platform.machine().lower() or "unknown"
    machine = {"amd64": "x86_64", "arm64": "aarch64" if platform.system() == "Linux" else "arm64"}.get(
        machine, machine)
    system = platform.system()
    if system == "Linux":
        return f"{machine}-unknown-linux-gnu"
    if system == "Darwin":
        return f"{machine}-apple-darwin{platform.release()}"
    if system == "Windows":
        return f"{machine}-pc-windows-msvc"
    return f"{machine}-unknown-{system.lower() or 'unknown'}"


def _nvidia_arch() -> str | None:
    import shutil
    import subprocess

    smi = shutil.which("nvidia-smi")
    if smi is None:
        return None
    try:
        out = subprocess.run([smi, "--query-gpu=compute_cap", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=10, check=True).stdout
        major, _, minor = out.splitlines()[0].strip().partition(".")
        return f"sm_{int(major)}{int(minor or 0)}"
    except (OSError, subprocess.SubprocessError, ValueError, IndexError):
        return None
