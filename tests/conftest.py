from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

# The tests' compiled-rules cache is their own, not the user's (~/.cache/referee); a private folder, as the cache demands.
if "REFEREE_CACHE_DIR" not in __import__("os").environ:
    import os
    import tempfile

    _cache = Path(tempfile.gettempdir()) / f"referee-tests-cache-{os.getuid() if hasattr(os, 'getuid') else 0}"
    _cache.mkdir(mode=0o700, exist_ok=True)
    os.environ["REFEREE_CACHE_DIR"] = str(_cache)
