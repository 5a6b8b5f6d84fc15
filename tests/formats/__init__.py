"""Tests of formats/: text in and out."""
