"""Tests of SAT: the CNF model, the sat solver, any SAT program, the encodings shown."""
