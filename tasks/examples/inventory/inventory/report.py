"""Prints a stock report using the settings file."""

from inventory.config import parse_config
from inventory.stock import low_stock, total_quantity


def render(settings_text, items):
    settings = parse_config(settings_text)
    threshold = int(settings.get("low_stock_threshold", "5"))
    lines = [f"{settings.get('title', 'Stock report')}: {total_quantity(items)} units"]
    for name in low_stock(items, threshold):
        lines.append(f"  low: {name}")
    return "\n".join(lines)
