"""Small functions, each with a bug: the nightly evaluation set's project (tasks/nightly/)."""
