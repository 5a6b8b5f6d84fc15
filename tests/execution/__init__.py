"""Tests of execution/: a Dask cluster, the judge's sandbox and its confinement."""
