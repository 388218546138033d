"""Tests of labelrank.hierarchy.LabelTree: construction, validation, structure, file formats, drawing."""

from __future__ import annotations

import itertools

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from labelrank.paths import data_dir  # noqa: E402
from labelrank.hierarchy import LabelTree  # noqa: E402

SPORT = {
    "root": None,
    "Sport": "root",
    "Politics": "root",
    "Football": "Sport",
    "Tennis": "Sport",
    "Athletics": "Sport",
    "Premier League": "Football",
    "World Cup": "Football",
    "Marathon": "Athletics",
    "Elections": "Politics",
}


@pytest.fixture
def sport() -> LabelTree:
    return LabelTree.from_parents(SPORT)


# ----------------------------------------------------------------------------------------------- structure
def test_basic_structure(sport):
    assert sport.root == "root"
    assert sport.labels == tuple(SPORT)
    assert len(sport) == 10 and "Tennis" in sport and "Golf" not in sport
    assert sport.children("Sport") == ("Football", "Tennis", "Athletics")
    assert sport.parents("Marathon") == ("Athletics",) and sport.parents("root") == ()
    assert sport.leaves == ("Tennis", "Premier League", "World Cup", "Marathon", "Elections")
    assert [sport.depth(x) for x in ("root", "Sport", "Football", "World Cup")] == [0, 1, 2, 3]
    assert sport.height("root") == 3 and sport.height("Politics") == 1 and sport.height("Tennis") == 0
    assert sport.max_depth == 3
    assert sport.n_children("Sport") == 3 and sport.is_leaf("Tennis") and not sport.is_leaf("Sport")
    assert sport.chains("Marathon") == (("root", "Sport", "Athletics", "Marathon"),)
    assert sport.ancestors("Marathon") == {"root", "Sport", "Athletics"}
    assert sport.descendants("Sport") == {"Football", "Tennis", "Athletics", "Premier League", "World Cup",
                                          "Marathon"}
    assert sport.lowest_common_ancestors("Premier League", "Marathon") == {"Sport"}
    assert sport.lowest_common_ancestors("Premier League", "Football") == {"Football"}
    assert not sport.is_dag
    assert sport.preorder() == ["root", "Sport", "Football", "Premier League", "World Cup", "Tennis", "Athletics",
                                "Marathon", "Politics", "Elections"]


def test_chain_lengths_worked_example(sport):
    # leaves at depths: Tennis 2, Premier League 3, World Cup 3, Marathon 3, Elections 2
    assert sport.mean_chain_length == pytest.approx(13 / 5)
    assert sport.chain_length_through("Sport") == pytest.approx(11 / 4)  # full chains, not the depth 1
    assert sport.chain_length_through("Football") == pytest.approx(3.0)
    assert sport.chain_length_through("Tennis") == pytest.approx(2.0)
    assert sport.chain_length_through("root") == pytest.approx(13 / 5)
    # children: root 2, Sport 3, Football 2, Athletics 1, Politics 1
    assert sport.mean_branching == pytest.approx(9 / 5)


def test_dag_chains_and_stats():
    t = LabelTree.from_parents({"r": None, "a": "r", "b": "r", "a1": "a", "x": ["a1", "b"], "y": "x"})
    assert t.is_dag and t.parents("x") == ("a1", "b")
    assert set(t.chains("y")) == {("r", "a", "a1", "x", "y"), ("r", "b", "x", "y")}
    assert t.depth("y") == 3  # the shortest chain
    # leaf chains: y via a1 (4 edges) and via b (3 edges)
    assert t.mean_chain_length == pytest.approx(3.5)
    assert t.chain_length_through("b") == pytest.approx(3.0)
    assert t.chain_length_through("x") == pytest.approx(3.5)
    assert t.lowest_common_ancestors("a1", "b") == {"r"}
    assert t.to_parents()["x"] == ["a1", "b"]


# --------------------------------------------------------------------------------------------- validation
@pytest.mark.parametrize(
    "parents, error, words",
    [
        ({"r": None, "a": "r", "b": "c"}, ValueError, ["'c'", "'b'", "unknown"]),
        ({"r": None, "s": None, "a": "r"}, ValueError, ["'r'", "'s'", "one root"]),
        ({"r": None, "a": "b", "b": "c", "c": "a"}, ValueError, ["cycle", "'a'", "'b'", "'c'"]),
        ({"a": "b", "b": "a"}, ValueError, ["cycle"]),
        ({"r": None, "a": "a"}, ValueError, ["cycle", "'a' -> 'a'"]),
        ({"r": None, "a": ["r", "r"]}, ValueError, ["'a'", "more than once"]),
        ({"r": None, "a": []}, ValueError, ["'a'", "empty"]),
        ({"r": None, 5: "r"}, TypeError, ["label", "5"]),
        ({"r": None, "a": 3}, TypeError, ["'a'", "3"]),
        ({"r": None, "": "r"}, ValueError, ["non-empty"]),
        ({}, ValueError, ["at least one"]),
    ],
)
def test_bad_parent_maps_raise_naming_labels(parents, error, words):
    with pytest.raises(error) as info:
        LabelTree.from_parents(parents)
    for w in words:
        assert w in str(info.value)


def test_not_a_mapping_and_unknown_label(sport):
    with pytest.raises(TypeError, match="parents must be"):
        LabelTree.from_parents([("a", None)])
    with pytest.raises(ValueError, match="'Golf' is not a label"):
        sport.depth("Golf")
    with pytest.raises(TypeError, match="label must be a label"):
        sport.children(3)


# ------------------------------------------------------------------------------------------------- files
def test_file_round_trip(tmp_path, sport):
    path = tmp_path / "t.yaml"
    sport.to_file(path, header="a test tree\nsecond line")
    text = path.read_text()
    assert text.startswith("# a test tree\n# second line\n")
    assert LabelTree.from_file(path) == sport
    assert LabelTree.from_file(path).labels == sport.labels
    dag = LabelTree.from_parents({"r": None, "1": "r", "b": "r", "x: y": ["1", "b"], "null": "r"})
    dag.to_file(path)
    assert LabelTree.from_file(path) == dag


def test_file_structured_format_and_errors(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text("name: demo\nmeta: {source: test}\nparents:\n  r: null\n  a: r\n  b: [r]\n")
    t = LabelTree.from_file(path)
    assert t.labels == ("r", "a", "b")
    path.write_text("r: null\na: r\nb: r\na: b\n")
    with pytest.raises(ValueError, match="duplicate label 'a'.*lines 2 and 4"):
        LabelTree.from_file(path)
    path.write_text("r: null\n0101: r\n")
    with pytest.raises(TypeError, match="quote it"):
        LabelTree.from_file(path)
    path.write_text("- r\n- a\n")
    with pytest.raises(ValueError, match="YAML mapping"):
        LabelTree.from_file(path)
    with pytest.raises(FileNotFoundError, match="nope.yaml"):
        LabelTree.from_file(tmp_path / "nope.yaml")


def test_stored_figure1_tree_reads():
    t = LabelTree.from_file(data_dir() / "fterm" / "2C088_figure1.yaml")
    assert t.root == "2C088"
    assert t.parents("AA03") == ("AA02",) and t.parents("AA02") == ("AA01",)
    assert t.parents("AA01") == ("AA",) and t.parents("AA65") == ("AA",) and t.parents("BA") == ("2C088",)


# ---------------------------------------------------------------------------------------------- F-terms
def test_from_fterms_all_input_forms():
    t = LabelTree.from_fterms(
        "2C088", ["AA01", ".AA02", "..AA03", ("AA04", 1), "AA65", "・AA66", "BA", "2C088BA01", "BB00", "BB02"]
    )
    assert t.root == "2C088"
    assert t.children("2C088") == ("AA", "BA", "BB")
    assert t.parents("AA02") == ("AA01",) and t.parents("AA03") == ("AA02",)
    assert t.parents("AA04") == ("AA01",)  # one dot: under the latest element with no dot
    assert t.parents("AA65") == ("AA",) and t.parents("AA66") == ("AA65",)
    assert t.parents("BA01") == ("BA",) and t.parents("BB02") == ("BB",)
    assert t.depth("AA03") == 4


@pytest.mark.parametrize(
    "codes, error, words",
    [
        (["AA01", "AA01"], ValueError, ["duplicate", "'AA01'"]),
        (["AA01", "..AA02"], ValueError, ["'..AA02'", "2 dot"]),
        ([".AA01"], ValueError, ["'.AA01'", "1 dot"]),
        (["AA1"], ValueError, ["malformed", "'AA1'"]),
        (["aa01"], ValueError, ["malformed", "'aa01'"]),
        ([("AA01", -1)], ValueError, ["'AA01'", ">= 0"]),
        ([("AA01", "1")], TypeError, ["'AA01'", "integer"]),
        ([("AA01", 1, 2)], ValueError, ["2 items"]),
        (["AA", "AA"], ValueError, ["duplicate", "'AA'"]),
        ([(".AA", 1)], ValueError, ["malformed"]),
        ("AA01", TypeError, ["single string"]),
    ],
)
def test_from_fterms_errors(codes, error, words):
    with pytest.raises(error) as info:
        LabelTree.from_fterms("2C088", codes)
    for w in words:
        assert w in str(info.value)


def test_from_paths_enron_like():
    labels = [f"{g}.{g}{i}" for g in "ABCD" for i in range(1, 4)]
    t = LabelTree.from_paths(labels)
    assert t.children("root") == ("A", "B", "C", "D")
    assert t.children("B") == ("B.B1", "B.B2", "B.B3")
    assert t.depth("D.D3") == 2 and len(t) == 1 + 4 + 12
    assert LabelTree.from_paths(["x/y/z"], sep="/", root="top").chains("x/y/z") == (("top", "x", "x/y", "x/y/z"),)
    with pytest.raises(ValueError, match="duplicate label 'A.A1'"):
        LabelTree.from_paths(["A.A1", "A.A1"])
    with pytest.raises(ValueError, match="empty part"):
        LabelTree.from_paths(["A..B"])
    with pytest.raises(ValueError, match="collides"):
        LabelTree.from_paths(["root"])


def test_from_paths_and_from_fterms_do_not_depend_on_the_order_of_parent_and_child():
    """A parent listed after a child that created it is not a duplicate; one listed twice explicitly still is."""
    assert LabelTree.from_paths(["A.A1", "A"]) == LabelTree.from_paths(["A", "A.A1"])
    assert LabelTree.from_paths(["A.A1", "A"]).labels == ("root", "A", "A.A1")
    assert LabelTree.from_paths(["a.b.c", "a", "a.b"]) == LabelTree.from_paths(["a", "a.b", "a.b.c"])
    with pytest.raises(ValueError, match="duplicate label 'A'"):
        LabelTree.from_paths(["A.A1", "A", "A"])
    after = LabelTree.from_fterms("2C088", ["AA01", "AA", ".AA02"])
    assert after == LabelTree.from_fterms("2C088", ["AA", "AA01", ".AA02"])
    assert after.parents("AA02") == ("AA01",)  # the viewpoint heading does not reset the dot stack
    assert LabelTree.from_fterms("2C088", ["AA01", "AA00"]) == LabelTree.from_fterms("2C088", ["AA01"])
    for codes in (["AA01", "AA", "AA"], ["AA01", "AA", "AA00"]):
        with pytest.raises(ValueError, match="viewpoint 'AA' listed twice"):
            LabelTree.from_fterms("2C088", codes)


def test_a_parent_map_without_root_is_reported_as_a_cycle():
    with pytest.raises(ValueError, match="cycle"):
        LabelTree({"a": ("b",), "b": ("a",)})
    with pytest.raises(ValueError, match="cycle"):
        LabelTree.from_parents({"a": "a"})


# ------------------------------------------------------------------------------------------------ drawing
def test_layout_and_draw(sport):
    pos = sport.layout()
    assert set(pos) == set(sport.labels)
    assert pos["root"][1] == 0 and pos["World Cup"][1] == -3
    # a parent sits between its first and last child
    assert pos["Football"][0] == pytest.approx((pos["Premier League"][0] + pos["World Cup"][0]) / 2)
    folded = sport.layout(fold=["Football"])
    assert "Premier League" not in folded and "+3@Sport" in folded
    ax = sport.draw(highlight=["Tennis"], annotate={"Tennis": "n3 = 2"}, fold=["Politics"])
    assert ax.get_ylabel().startswith("depth")
    shown = sport.draw(text=str.upper)
    assert "TENNIS" in {t.get_text() for t in shown.texts} and "Tennis" not in {t.get_text() for t in shown.texts}
    plt.close("all")
    with pytest.raises(ValueError, match="unknown label"):
        sport.draw(highlight=["Golf"])
    with pytest.raises(ValueError, match="root"):
        sport.layout(fold=["root"])
    with pytest.raises(ValueError, match="annotate"):
        sport.draw(annotate={"Golf": "x"})
    plt.close("all")


# ----------------------------------------------------------------------------------------- property tests
@st.composite
def random_parent_maps(draw, max_size: int = 14, dag: bool = False):
    n = draw(st.integers(1, max_size))
    parents: dict[str, object] = {"n0": None}
    for i in range(1, n):
        p = draw(st.integers(0, i - 1))
        if dag and i > 1 and draw(st.booleans()):
            q = draw(st.integers(0, i - 1))
            parents[f"n{i}"] = [f"n{p}", f"n{q}"] if q != p else f"n{p}"
        else:
            parents[f"n{i}"] = f"n{p}"
    return parents


@settings(max_examples=60, deadline=None)
@given(random_parent_maps(dag=True))
def test_structure_invariants(parents):
    t = LabelTree.from_parents(parents)
    assert sum(t.n_children(x) for x in t) == sum(len(t.parents(x)) for x in t)
    for x in t:
        for c in t.chains(x):
            assert c[0] == t.root and c[-1] == x and len(set(c)) == len(c)
        assert t.depth(x) == min(len(c) - 1 for c in t.chains(x))
        for p in t.parents(x):
            assert x in t.children(p)
    # chain statistics against brute-force enumeration of the root-to-leaf chains
    chains = t.leaf_chains()
    lengths = [len(c) - 1 for c in chains]
    assert t.mean_chain_length == pytest.approx(np.mean(lengths))
    for x in t:
        through = [len(c) - 1 for c in chains if x in c]
        assert t.chain_length_through(x) == pytest.approx(np.mean(through))
    # the unfolding's ancestor table
    ar = t.arrays
    for row in range(len(ar.node)):
        d = ar.depth[row]
        assert ar.ancestor_at[d, row] == row
        if d > 0:
            assert ar.ancestor_at[d - 1, row] == ar.parent[row]
        assert (ar.ancestor_at[d + 1 :, row] == -1).all()
    # binary lifting against the chains themselves: the common ancestor, the ancestor at a depth, the path sums
    rows = np.arange(len(ar.node))
    chain_of = []
    for row in rows:
        up = [int(row)]
        while ar.parent[up[-1]] >= 0:
            up.append(int(ar.parent[up[-1]]))
        chain_of.append(up[::-1])
    i, j = np.meshgrid(rows, rows)
    want = [[max(set(chain_of[a]) & set(chain_of[b]), key=lambda r: ar.depth[r]) for a in rows] for b in rows]
    assert ar.lowest_common(i, j).tolist() == want  # the range-minimum table
    assert ar.lowest_common_lifting(i, j).tolist() == want
    for row in rows:
        assert ar.ancestor(np.full(ar.depth[row] + 1, row), np.arange(ar.depth[row] + 1)).tolist() == chain_of[row]
    values = np.arange(1.0, len(rows) + 1) ** 2
    np.testing.assert_array_equal(ar.path_sums(values), [values[c].sum() for c in chain_of])
    order = t.preorder()
    assert sorted(order) == sorted(t.labels) and order[0] == t.root


    def first_parent_chain(y):
        out = [y]
        while t.parents(out[-1]):
            out.append(t.parents(out[-1])[0])
        return out

    for x in t:  # every first-parent subtree is a contiguous run starting at x
        sub = [y for y in order if x in first_parent_chain(y)]
        i = order.index(x)
        assert order[i : i + len(sub)] == sub


@settings(max_examples=40, deadline=None)
@given(random_parent_maps(dag=True))
def test_file_round_trip_property(tmp_path_factory, parents):
    path = tmp_path_factory.mktemp("trees") / "t.yaml"
    t = LabelTree.from_parents(parents)
    t.to_file(path)
    assert LabelTree.from_file(path) == t


def test_fterms_match_parent_map_on_random_dot_sequences():
    rng = np.random.default_rng(0)
    for _ in range(50):
        codes, expected, stack = [], {"T": None, "AA": "T"}, []
        for number in range(1, int(rng.integers(2, 30))):
            level = int(rng.integers(0, len(stack) + 1))
            code = f"AA{number:02d}"
            codes.append("." * level + code)
            expected[code] = "AA" if level == 0 else stack[level - 1]
            stack = stack[:level] + [code]
        t = LabelTree.from_fterms("T", codes)
        assert t == LabelTree.from_parents(expected)


def test_every_small_tree_shape_builds():
    # all parent maps on 4 non-root labels where each parent comes earlier: 1*2*3*4 = 24 trees
    for ps in itertools.product(*[range(i) for i in range(1, 5)]):
        parents = {"n0": None, **{f"n{i + 1}": f"n{p}" for i, p in enumerate(ps)}}
        t = LabelTree.from_parents(parents)
        assert len(t.leaves) >= 1 and t.max_depth == max(t.depth(x) for x in t)


# ---- hostile tree files ---------------------------------------------------------------------------------------------


def _laughs(levels: int = 25) -> str:
    text = 'l0: &l0 ["a", "a", "a", "a", "a", "a", "a", "a", "a"]\n'
    for i in range(1, levels):
        text += f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]\n"
    return text


@pytest.mark.parametrize("where", ["top", "metadata"])
def test_yaml_aliases_are_rejected_at_once(tmp_path, where):
    """A "billion laughs" tree file once took over 40 s and 2.3 GB while building its error message."""
    import time

    text = _laughs() + "r: null\n"
    if where == "metadata":
        text = "meta:\n" + "".join(f"  {line}\n" for line in _laughs().splitlines()) + "parents:\n  r: null\n"
    (tmp_path / "t.yaml").write_text(text)
    start = time.perf_counter()
    with pytest.raises(ValueError, match=r"YAML aliases \(\*name\) are not allowed in a tree file") as info:
        LabelTree.from_file(tmp_path / "t.yaml")
    assert time.perf_counter() - start < 2 and len(str(info.value)) < 300


def test_a_tree_file_may_start_with_a_byte_order_mark(tmp_path):
    (tmp_path / "t.yaml").write_bytes("\ufeffr: null\na: r\n".encode("utf-8"))
    assert LabelTree.from_file(tmp_path / "t.yaml").labels == ("r", "a")
    (tmp_path / "t16.yaml").write_bytes("r: null\na: r\n".encode("utf-16"))  # with its BOM
    assert LabelTree.from_file(tmp_path / "t16.yaml").labels == ("r", "a")


def test_error_messages_about_huge_labels_stay_short(tmp_path):
    huge = "x" * 1_000_000
    cases = [
        f"r: null\na: {huge}\n",  # unknown parent, 1 MB long
        f"r: null\n{huge}: r\n{huge}: r\n",  # duplicate label
        "r: null\n" + "".join(f"c{i}: p{i}\n" for i in range(100_000)),  # 100,000 unknown parents
    ]
    for text in cases:
        (tmp_path / "t.yaml").write_text(text)
        with pytest.raises(ValueError) as info:
            LabelTree.from_file(tmp_path / "t.yaml")
        assert len(str(info.value)) < 400, str(info.value)[:200]


@settings(max_examples=300, deadline=None)
@given(labels=st.lists(st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=40), min_size=1,
                       max_size=6, unique=True), data=st.data())
def test_to_file_writes_what_from_file_reads(tmp_path_factory, labels, data):
    """Any labels the tree accepts (spaces, line breaks, quotes, YAML's own words, control characters), long ones
    (folded over lines, or beyond YAML's 1,024-character implicit keys) among them, survive the round trip."""
    long = data.draw(st.sampled_from(["", "a b " * 40, "x" * 1100, "k\n" * 600]))
    labels = list(dict.fromkeys([*labels, *([long] if long else [])]))
    parents = {"root node": None}
    for label in labels:
        if label != "root node":
            parents[label] = data.draw(st.sampled_from(list(parents)))
    tree = LabelTree.from_parents(parents)
    path = tmp_path_factory.mktemp("tree") / "tree.yaml"
    tree.to_file(path, header="a header\nover two lines")
    assert LabelTree.from_file(path).to_parents() == tree.to_parents()


def test_a_label_no_file_can_hold_is_refused():
    with pytest.raises(ValueError, match="lone surrogate U\\+D800"):
        LabelTree.from_parents({"r": None, "a\ud800": "r"})


def ladder_parents(levels: int = 23) -> dict:
    """A DAG of ``levels`` levels, each two nodes below both nodes of the level above: 2^levels chains to the bottom."""
    ladder = {"r": None, "a0": "r", "b0": "r"}
    for i in range(1, levels):
        ladder.update({f"a{i}": [f"a{i-1}", f"b{i-1}"], f"b{i}": [f"a{i-1}", f"b{i-1}"]})
    return ladder


def test_a_dag_whose_chains_would_not_fit_is_refused_with_the_bound():
    """The 46-label, 23-level ladder (2^23 chains to each bottom node) once allocated gigabytes: its unfolding and
    its chains are refused at once, the message naming the bound; what needs no chain is answered in linear space."""
    tree = LabelTree.from_parents(ladder_parents())
    for build in (lambda: tree.arrays, lambda: tree.chains("a22"), tree.leaf_chains):
        with pytest.raises(ValueError, match="more than the bound of 50,000,000"):
            build()
    assert tree.chain_size[0] == 2 ** 24 - 1 and tree.n_chains("a22") == 2 ** 22
    assert tree.max_depth == 23 and tree.depth("b22") == 23
    assert tree.ancestors("a22") == frozenset(tree.labels) - {"a22", "b22"}
    assert len(tree.chains("a5")) == 2 ** 5  # a small part of it is enumerated as asked


def test_a_chain_100000_deep_is_held_in_linear_space():
    """A chain 20,000 deep once needed 3 GiB (an ancestor table of depth x labels); now its arrays are the parents
    and a lifting table of 17 levels, and BDM of any pair is what the definition gives."""
    from labelrank.cost import BDMIndex, bdm

    n = 100_000
    tree = LabelTree.from_parents({"n0": None, **{f"n{i}": f"n{i-1}" for i in range(1, n + 1)}})
    arrays = tree.arrays
    assert arrays.up.shape == (17, n + 1) and tree.max_depth == n
    assert len(tree.chains(f"n{n}")[0]) == n + 1 and len(tree.ancestors("n70000")) == 70_000
    keys, responses = ["n99999", "n5", "n50000", "n100000"], ["n100000", "n5", "n3", "n1"]
    np.testing.assert_allclose(BDMIndex(tree).pairs(keys, responses),
                               [bdm(tree, k, r) for k, r in zip(keys, responses)], rtol=1e-12)
    assert arrays.lowest_common([99_999, 7], [100_000, 3]).tolist() == [99_999, 3]
    assert arrays.lowest_common_lifting([99_999, 7], [100_000, 3]).tolist() == [99_999, 3]


def test_lowest_common_without_the_range_minimum_table(monkeypatch):
    """Beyond RMQ_MAX_ENTRIES no table is built and binary lifting answers, the same rows on a random tree."""
    import labelrank.hierarchy.arrays as arrays_module

    rng = np.random.default_rng(5)
    parents = {"r": None, **{f"n{i}": ("r" if i < 3 else f"n{int(rng.integers(i))}") for i in range(400)}}
    tree = LabelTree.from_parents(parents)
    i, j = rng.integers(0, len(tree), 5000), rng.integers(0, len(tree), 5000)
    with_table = LabelTree.from_parents(parents).arrays.lowest_common(i, j)
    monkeypatch.setattr(arrays_module, "RMQ_MAX_ENTRIES", 0)
    assert tree.arrays.range_minimum is None
    np.testing.assert_array_equal(tree.arrays.lowest_common(i, j), with_table)
