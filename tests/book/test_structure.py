"""The import structure stays as the design card draws it (tests/structure.py reads it from the source): no private
name crosses a package boundary, no star import, no import from a lower floor to a higher one, no circle, and no
test imports above its layer."""

import structure


def test_no_private_import_crosses_a_package():
    assert [f"{imp.path}:{imp.line}: {what}" for imp, what in structure.private_crossings(structure.all_imports())] == []


def test_no_star_import():
    assert [f"{imp.path}:{imp.line}" for imp in structure.all_imports() if imp.star] == []


def test_no_upward_arrow():
    assert [f"{imp.path}:{imp.line}: {imp.module}" for imp in structure.upward_arrows(structure.all_imports())] == []


def test_no_circle():
    assert structure.circles(structure.all_imports()) == []


def test_library_tests_import_no_engine_or_study_and_the_seam_test_no_study():
    assert [f"{imp.path}:{imp.line}: {imp.module}" for imp in structure.test_layer_arrows()] == []


def test_the_checks_can_fail():
    """Each check finds what it is there to find, on made-up imports."""
    found = structure._imports_of(structure.ast.parse(
        "from labelrank.protocol.fits import _start_task\nimport labelrank._entries\n"
        "from labelrank.studies import paper\nfrom labelrank.cost import *\n"), "labelrank.cli", "lib/labelrank/cli.py")
    assert [what for _, what in structure.private_crossings(found)] == ["labelrank.protocol.fits._start_task"]
    assert [imp.module for imp in structure.upward_arrows(found)] == ["labelrank.protocol.fits", "labelrank.studies"]
    assert [imp.module for imp in found if imp.star] == ["labelrank.cost"]
    cycle = structure._imports_of(structure.ast.parse("from labelrank import cli\n"), "labelrank.cost",
                                  "lib/labelrank/cost.py")
    back = structure._imports_of(structure.ast.parse("from labelrank import cost\n"), "labelrank.cli",
                                 "lib/labelrank/cli.py")
    assert structure.circles(cycle + back) == [["labelrank.cli", "labelrank.cost"]]
