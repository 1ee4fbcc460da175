"""Smoke-gate arithmetic exact to the Hugging Face Trainer."""
