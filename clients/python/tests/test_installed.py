"""The package under test is the installed one (tools/test-python's venv, or a system install), not the
checkout's source: a test run that imported clients/python/pressured would prove nothing about packaging."""
import importlib.metadata
import os
import unittest

import pressured
import pressured.types

SOURCE = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pressured"))


class InstalledTests(unittest.TestCase):
    def test_the_package_comes_from_an_install_not_the_checkout(self):
        where = os.path.dirname(os.path.realpath(pressured.__file__))
        self.assertNotEqual(where, SOURCE, "run the tests with the installed package (tools/test-python)")

    def test_the_install_carries_its_type_information(self):
        where = os.path.dirname(pressured.__file__)
        self.assertTrue(os.path.isfile(os.path.join(where, "py.typed")), "py.typed is not installed")

    def test_public_names(self):
        for name in pressured.__all__:
            self.assertTrue(hasattr(pressured, name), name)
        self.assertEqual(pressured.__version__, importlib.metadata.version("pressured"))  # pyproject's
        self.assertIs(pressured.PressuredClient, pressured.Client)
