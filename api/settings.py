"""Service settings: limits and CORS, read from ``MJLENS_*`` environment variables.

Every limit that protects the service from hostile or clumsy uploads is a
setting with a safe default, so that an operator can raise it for a trusted
deployment without touching code; a bad value stops the service at start with
a message naming the variable, rather than misbehaving under load.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from vision.photo import DEFAULT_MAX_BYTES, DEFAULT_MAX_PIXELS

ReadAgain = Literal["always", "when_idle", "never"]
"""When a photo whose hand leaves tiles hard to read is read again, closer
(``vision.recognize.UNSURE_TILES``)."""
SWITCH: dict[str, ReadAgain] = {
    "true": "always", "1": "always", "yes": "always", "on": "always",
    "false": "never", "0": "never", "no": "never", "off": "never",
}


def available_cpus() -> int:
    """The CPUs this process may run on: the default number of recognitions at once
    (more would only queue inside the CPU and use memory), and the most that a
    closer read may run beside (:mod:`api.workload`)."""
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
               else os.cpu_count() or 1)


def _default_workload_dir() -> str:
    """One folder per user, shared by every process of the service on this machine
    (:mod:`api.workload`)."""
    user = os.getuid() if hasattr(os, "getuid") else os.environ.get("USERNAME", "user")
    return str(Path(tempfile.gettempdir()) / f"mjlens-workload-{user}")


class Settings(BaseSettings):
    """All knobs of the service; environment variables are ``MJLENS_`` + the field name."""

    model_config = SettingsConfigDict(env_prefix="MJLENS_", frozen=True, extra="ignore")

    max_upload_bytes: int = Field(
        default=DEFAULT_MAX_BYTES, ge=1024,
        description="Largest photo upload in bytes; bigger uploads get 413 image_too_large.",
    )
    max_pixels: int = Field(
        default=DEFAULT_MAX_PIXELS, ge=10_000,
        description="Most pixels a photo may have (checked from the header: decompression bombs).",
    )
    max_side: int = Field(
        default=2000, ge=0,
        description="Photos are decoded with their longest side at most this many pixels "
        "(JPEGs cheaply, by DCT scaling, which may land up to 5 % over it: kept so); 0 "
        "keeps the full size. Outlines are always "
        "reported in the original photo's pixels.",
    )
    max_concurrent_recognitions: int = Field(
        default_factory=available_cpus, ge=1,
        description="Recognitions running at once per worker process (default: CPUs).",
    )
    max_queued_recognitions: int = Field(
        default=16, ge=0,
        description="Photos that may wait for a recognition slot; more get 503 busy at once.",
    )
    queue_timeout_s: float = Field(
        default=30.0, gt=0,
        description="How long a photo may wait for a free recognition slot before 503 busy.",
    )
    max_json_bytes: int = Field(
        default=256 * 1024, ge=1024,
        description="Largest JSON request body (score requests are small).",
    )
    cors_origins: str = Field(
        default="", description="Comma-separated origins allowed by CORS (e.g. "
        "'https://app.example.com'), '*' for any; empty disables CORS.",
    )
    workers: int = Field(
        default=1, ge=1, description="Worker processes started by 'mjlens serve'.")
    read_again_unsure: ReadAgain = Field(
        default="when_idle",
        description="Read a photo again, closer, when its tiles count as a winning hand "
        "but some stay hard to read: more hands read exactly and fewer tiles to check, at "
        "about twice the CPU time for such photos (a third of photos of an unfamiliar tile "
        "set). 'always'; 'when_idle' (only while no other photo waits for a recognition "
        "slot in any of the service's processes and no more photos are read than CPUs, "
        "so that a busy service keeps its throughput); 'never'. true and false "
        "mean always and never.",
    )
    workload_dir: str = Field(
        default_factory=_default_workload_dir,
        description="Folder where the service's processes on this machine share how many "
        "photos each reads and queues, so that 'when_idle' means the whole machine is "
        "idle (several workers; api/workload.py). Empty: each process counts only its own.",
    )
    annotate_quality: int = Field(
        default=85, ge=30, le=95, description="JPEG quality of annotated images.",
    )

    @field_validator("read_again_unsure", mode="before")
    @classmethod
    def _on_or_off(cls, value: object) -> object:
        """The setting began as a switch (fifty-sixth session): a deployment that set
        it to true or false keeps the behaviour it chose."""
        if isinstance(value, bool):
            return "always" if value else "never"
        if isinstance(value, str) and value.strip().lower() in SWITCH:
            return SWITCH[value.strip().lower()]
        return value

    @field_validator("cors_origins")
    @classmethod
    def _strip(cls, value: str) -> str:
        return ",".join(o.strip() for o in value.split(",") if o.strip())

    @property
    def cors_origin_list(self) -> list[str]:
        return [o for o in self.cors_origins.split(",") if o]

    @property
    def max_body_bytes(self) -> int:
        """An upload's photo plus its form fields and multipart framing."""
        return self.max_upload_bytes + self.max_json_bytes
