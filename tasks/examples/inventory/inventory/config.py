"""Reads the inventory's settings file: one `key = value` per line, `#` starts a comment."""


def parse_config(text):
    settings = {}
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        if "=" not in line:
            raise ValueError(f"line {number}: expected 'key = value', got {line!r}")
        key, value = line.split("=", 1)
        settings[key.strip()] = value.strip()
    return settings
