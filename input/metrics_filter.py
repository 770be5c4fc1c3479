"""Sample: filter metric records by a threshold."""


def filter_metrics(records, threshold, key="value"):
    """Return the records whose ``key`` is at least ``threshold``, in their original order."""
    if not isinstance(records, list) or not all(isinstance(r, dict) for r in records):
        raise TypeError("records must be a list of dicts")
    if not isinstance(threshold, (int, float)):
        raise TypeError(f"threshold must be a number, got {type(threshold).__name__}")
    return [r for r in records if r.get(key, 0) >= threshold]
