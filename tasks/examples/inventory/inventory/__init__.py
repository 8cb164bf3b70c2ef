"""A tiny stock-keeping library: the sample project the example tasks work on."""
