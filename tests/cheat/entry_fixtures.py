"""Per-sheet fixtures for the executed-entries test: a scratch directory each sheet's commands
make sense in, values for their placeholders, and what some entries must visibly do.

The names in the sheets are real ones (transformers files, tags, hashes), as the methodology
prefers; the fixtures build those names, and map the few literal hashes to tags of the
scratch repository.
"""

from __future__ import annotations

import os
import shlex
import sys

from tests.cheat.entry_runner import Check, SheetFixture

# -- git -------------------------------------------------------------------------------------------
# main: root (repro fails) -> padding (passes) -> ... v4.33.0 ... the culprit, merged from a PR
# branch (fails from then on) ... v4.34.0 ... v4.34.1 ... one commit not pushed; origin/main has
# one commit not fetched-and-merged; fix forks from the root with "fix tokenizer" on it.
GIT_SETUP = r"""
git init -q -b main --bare ../origin.git
git init -q -b main
git config advice.detachedHead false
commit() { git add -A && git commit -q -m "$1"; }
mkdir -p src/transformers/models/llama tests
: > src/transformers/__init__.py  # a regular package, as in the real checkout
seq 1 200 | sed 's/^/# setup line /' > setup.py
{ echo 'def train(x):'; seq 1 100 | sed 's/^/    x += 1  # step /'; } > src/transformers/train.py
printf 'def helper():\n    return 1\n' > src/transformers/old_utils.py
printf 'CUDA_LAUNCH_BLOCKING = 0\n' > src/transformers/cuda.py
printf 'import sys\nsys.path.insert(0, "src")\n' > tests/conftest.py
printf 'class Model:\n    def forward(self, x):\n        return x\n' > src/model.py
printf 'def from_pretrained(name):\n    return name\n' > src/transformers/modeling_utils.py
printf 'import sys\nsys.path.insert(0, "src")\nfrom transformers.padding import pad\nassert pad([1]) == [1, 0]\n' > repro.py
printf 'import runpy\n\ndef test_padding():\n    runpy.run_path("repro.py")\n' > tests/test_tokenization.py
printf 'build/\n*.egg-info/\n__pycache__/\n' > .gitignore
commit "root"
git update-ref refs/qq/root HEAD
git branch fix
git mv src/transformers/train.py src/transformers/trainer.py
printf 'def pad(x):\n    return x + [0]\n' > src/transformers/padding.py
commit "implement padding"
git update-ref refs/qq/padding HEAD
printf '\ndef register_hook(fn):\n    return fn\n' >> src/transformers/modeling_utils.py
commit "add hooks"
printf 'def from_pretrained(name, revision=None):\n    return name, revision\n' > src/transformers/modeling_utils.py
printf '\ndef register_hook(fn):\n    return fn\n' >> src/transformers/modeling_utils.py
commit "from_pretrained takes a revision"
git tag v4.33.0
git update-ref refs/qq/release-base HEAD
git branch release-1.0.36
printf 'FP16 = True\n' > src/transformers/fp16.py
commit "fp16 with deepspeed"
printf 'def save(max_shard_size="2GB"):\n    return max_shard_size\n' > src/transformers/saving.py
commit "save: max_shard_size"
git rm -q src/transformers/old_utils.py
commit "drop old_utils"
git update-ref refs/qq/deleted HEAD
GIT_AUTHOR_NAME=stas GIT_AUTHOR_DATE="$(date -d "3 days ago" -R)" GIT_COMMITTER_DATE="$(date -d "3 days ago" -R)" \
    git commit -q --allow-empty -m "Bisect helper notes"
git checkout -q -b dev-padding
printf 'def pad(x):\n    return x\n' > src/transformers/padding.py
printf '# llama\n' > src/transformers/models/llama/modeling_llama.py
commit "Speed up padding (#18998)"
git update-ref refs/qq/culprit HEAD
git checkout -q main
printf 'require_multigpu = None\n' > src/transformers/testing_utils.py
commit "testing utils"
git merge -q --no-ff -m "Merge pull request #18998 from dev/padding" dev-padding
git tag v4.34.0
git commit -q --allow-empty -m "docs"
git tag v4.34.1
git commit -q --allow-empty -m "after the release"
git checkout -q -b pr-v1 refs/qq/root && echo v1 > pr.txt && commit "pr: v1"
git checkout -q -b pr-v2 refs/qq/root && echo v2 > pr.txt && commit "pr: v2"
git checkout -q fix
printf '# tokenizer\n' > src/tokenizer.py && commit "fix tokenizer"
git checkout -q main
git remote add origin ../origin.git
git push -q origin main release-1.0.36 'refs/tags/*'
git push -q origin refs/qq/culprit:refs/pull/18998/head
git branch -q -u origin/main
git clone -q ../origin.git ../other && git -C ../other commit -q --allow-empty -m "upstream work" \
    && git -C ../other push -q origin main && rm -rf ../other
git fetch -q origin
git commit -q --allow-empty -m "local work, not pushed"
git reset -q --hard HEAD~1 && git reset -q --hard HEAD@{1}  # ORIG_HEAD and a reflog
mkdir -p build pkg.egg-info && touch build/x pkg.egg-info/PKG-INFO untracked.txt
git gc -q --prune=now && git -C ../origin.git gc -q --prune=now  # a few files to copy per entry
"""
CULPRIT = "$(git rev-parse --short=12 refs/qq/culprit)"
BISECTING = "git bisect start HEAD v4.33.0"
GIT = SheetFixture(
    setup=GIT_SETUP,
    values={"commit": "refs/qq/deleted"},
    literals={"57f44dc4288a": CULPRIT, "1c63e868d3": "refs/qq/release-base"},
    checks={
        "log --oneline main..fix": Check(output="fix tokenizer"),
        "--left-right main...fix": Check(output="^> .*fix tokenizer"),
        "git show --stat ':/fix tokenizer'": Check(output="src/tokenizer.py"),
        "git checkout -q 57f44dc4288a~1 && { python repro.py; git checkout -q -; }": Check(
            status=None,  # the checkout refused in the setting: exit 1
            after="test $(git branch --show-current) = main",
            # a local edit the checkout would overwrite: it fails, and `checkout -` would then
            # leave for the branch before (issue 28.1)
            settings=(
                "git checkout -q -b side && git checkout -q main"
                " && echo '# wip' >> src/transformers/padding.py",
            ),
        ),
        "git checkout -": Check(
            after="test $(git branch --show-current) = fix",
            before="git checkout -q fix && git checkout -q main",
        ),
        "--oneline @{u}..": Check(output="local work, not pushed"),
        "--oneline ..@{u}": Check(output="upstream work"),
        "--author=stas": Check(output="Bisect helper notes"),
        "--grep=fp16 --grep=deepspeed": Check(output="fp16 with deepspeed"),
        "-S 'max_shard_size'": Check(output="save: max_shard_size"),
        "-G 'def \\w+_hook": Check(output="add hooks"),
        "git log -L :from_pretrained": Check(output="takes a revision"),
        "git log -L 120,160:setup.py": Check(output="setup line 160"),
        "--follow -p -- src/transformers/trainer.py": Check(
            output="rename from src/transformers/train.py"
        ),
        "--diff-filter=D": Check(output="old_utils.py"),
        "git restore --source=<commit>~1": Check(after="test -f src/transformers/old_utils.py"),
        "git tag --contains": Check(output="v4.34.0"),
        "git describe --contains": Check(output="v4.34.0"),
        "git grep -n 'CUDA_LAUNCH_BLOCKING'": Check(output="cuda.py"),
        "git grep -n 'def forward' v4.33.0": Check(output="model.py"),
        "xargs -0 perl": Check(
            output="1 file changed",
            after="grep -q require_torch_multigpu src/transformers/testing_utils.py",
        ),
        "git bisect start && git bisect good": Check(output="Bisecting"),
        "git bisect good": Check(before=BISECTING),
        "git bisect bad": Check(before=BISECTING),
        "git bisect skip": Check(before=BISECTING),
        "git bisect skip v4.34.0": Check(before=BISECTING),
        "git bisect terms": Check(before=BISECTING, output="good"),
        "! python repro.py": Check(
            before="git bisect start --term-new=fixed --term-old=broken v4.33.0 refs/qq/root",
            output="is the first fixed commit(.|\n)*implement padding",
        ),
        "git bisect run python repro.py": Check(
            before=BISECTING, output="is the first bad commit(.|\n)*Speed up padding"
        ),
        "git bisect run pytest": Check(
            before=BISECTING, output="is the first bad commit(.|\n)*Speed up padding"
        ),
        "git submodule update": Check(before=BISECTING, output="is the first bad commit"),
        "--first-parent HEAD": Check(output="Bisecting"),
        "git bisect visualize": Check(before=BISECTING, output="Speed up padding"),
        "git bisect view": Check(before=BISECTING, output="Speed up padding"),
        "git bisect log >": Check(before=BISECTING, after="grep -q '^git bisect start' bisect.log"),
        "git bisect replay": Check(
            before=f"{BISECTING} && git bisect log > bisect.log", output="Bisecting"
        ),
        "git bisect reset": Check(
            before=BISECTING, after="test $(git branch --show-current) = main"
        ),
        "git bisect reset HEAD": Check(
            before=BISECTING, after="test -z $(git branch --show-current)"
        ),
        "git revert --no-commit": Check(
            after='test -z "$(git status --porcelain --untracked-files=no)"'
        ),
        "--ancestry-path --merges": Check(output="Merge pull request #18998"),
        "grep -o '(#[0-9]*)'": Check(output=r"\(#18998\)"),
        "refs/pull/*/head": Check(output="refs/pull/18998/head"),
        "git reset --hard 1c63e868d3": Check(
            after="test $(git rev-parse HEAD) = $(git rev-parse refs/qq/release-base)"
        ),
        "git push --force-with-lease": Check(
            before="git checkout -q release-1.0.36 && git commit -q --allow-empty -m rewritten"
        ),
        "git branch -f release-1.0.36": Check(
            after="test $(git rev-parse release-1.0.36) = $(git rev-parse refs/qq/release-base)"
        ),
        "git reset --soft HEAD~1": Check(after="git diff --cached --quiet"),
        "git reset --hard ORIG_HEAD": Check(),
        "git fetch && git reset --hard @{u}": Check(
            after="git log -1 --format=%s | grep -q 'upstream work'"
        ),
        "git reset --hard HEAD@{2}": Check(),
        "--staged --worktree -- src/model.py": Check(before="echo '# edit' >> src/model.py"),
        "git restore --staged src/model.py": Check(
            before="echo '# edit' >> src/model.py && git add src/model.py",
            after="git diff --cached --quiet && ! git diff --quiet",
        ),
        "git switch --detach v4.33.0": Check(
            after="test $(git rev-parse HEAD) = $(git rev-parse v4.33.0)"
        ),
        "git stash push -m": Check(
            before="echo 'print(1)' >> src/model.py",
            after="git stash list | grep -q 'debug prints'",
        ),
        "git stash list": Check(
            before="echo 'print(1)' >> src/model.py && git stash -q", output="stash@\\{0\\}"
        ),
        "git stash show -p": Check(
            before="echo 'print(1)' >> src/model.py && git stash -q", output=r"\+print\(1\)"
        ),
        "git stash pop": Check(
            before="echo 'print(1)' >> src/model.py && git stash -q",
            after="grep -q 'print(1)' src/model.py",
        ),
        "git worktree add": Check(after="test -d ../transformers-pr-18998/src"),
        "git worktree list": Check(before="git worktree add -q ../wt-two fix", output="wt-two"),
        "git worktree remove": Check(
            before="git worktree add -q -b pr-18998 ../transformers-pr-18998 origin/main",
            after="test ! -e ../transformers-pr-18998",
        ),
        "pull/18998/head:pr-18998": Check(
            after="test $(git rev-parse pr-18998) = $(git rev-parse refs/qq/culprit)"
        ),
        "git cherry-pick -x": Check(
            before="git checkout -q release-1.0.36",
            output="Speed up padding",
            after="git log -1 --format=%B | grep -q 'cherry picked from commit'",
        ),
        "git commit --fixup": Check(
            before="echo '# more' >> setup.py && git add setup.py",
            after="git log -1 --format=%s | grep -q '^fixup! drop old_utils'",
        ),
        "--autosquash main": Check(
            before="git checkout -q -b work && echo a > a.txt && git add a.txt && git commit -q -m 'add a' && echo b >> a.txt && git commit -q -a --fixup HEAD",
            after="test $(git rev-list --count main..HEAD) = 1",
        ),
        "git range-diff main pr-v1 pr-v2": Check(output="pr: v1"),
        "git diff HEAD > debug.patch": Check(
            before="echo '# debug' >> setup.py",
            after="grep -q '+# debug' debug.patch",
            settings=("git add setup.py",),  # a staged change (issue 28.1)
        ),
        "git apply --3way debug.patch": Check(
            before="echo '# debug' >> setup.py && git diff > debug.patch && git checkout -q -- setup.py",
            after="grep -q '^# debug' setup.py",
        ),
        "git diff --no-index": Check(
            before="mkdir run1 run2 && echo '{\"lr\": 1}' > run1/config.json && echo '{\"lr\": 2}' > run2/config.json",
            status=1,
            output='^-\\{"lr": 1\\}$',
        ),
        "git stash push -u": Check(
            before="echo 'print(1)' >> src/model.py && echo scratch > scratch.txt",
            after="test ! -e scratch.txt && git diff --quiet && git stash list | grep -q 'scratch files'",
        ),
        "$(git rev-list --all)": Check(output=r"old_utils\.py:1:def helper"),
        "git clean -xdn": Check(output="Would remove build/"),
        "git clean -xdf": Check(after="test ! -e build && test ! -e untracked.txt"),
        "--is-shallow-repository": Check(output="^false$"),
        "git status -sb": Check(output=r"## main\.\.\.origin/main \[ahead 1, behind 1\]"),
        "git shortlog -sn": Check(output="Dee Bugger"),
    },
)

FIXTURES: dict[str, SheetFixture] = {"git": GIT}


# -- python ----------------------------------------------------------------------------------------
# torch, transformers and numpy are not installed here: small stand-ins under lib/ (on
# PYTHONPATH) let the entries that only import or locate them run as written.
PYTHON_SETUP = r"""
mkdir -p src/mypkg lib/torch lib/transformers lib/numpy
printf '__version__ = "0.0-stand-in"\n' | tee lib/torch/__init__.py lib/transformers/__init__.py \
    lib/numpy/__init__.py > /dev/null
# the real torch takes seconds to import: the stand-in takes long enough to top -X importtime's
# list, above site and the encodings however loaded the machine (CI saw it pushed out at load 15)
printf 'import time\ntime.sleep(1)\n' >> lib/torch/__init__.py
: > src/mypkg/__init__.py
printf 'class Model:\n    def forward(self, x):\n        return x + 1\n' > src/mypkg/model.py
printf 'import mypkg.model\nprint(mypkg.model.Model().forward(1), mypkg.model.__file__)\n' \
    > my-program.py
printf 'import sys\n\n\ndef main():\n    print("training", sys.argv[1:])\n\n\nif __name__ == "__main__":\n    main()\n' > train.py
printf '{"lr": 0.001, "model": {"name": "t5-small", "layers": {"n": 6}}}\n' > config.json
for i in $(seq 150); do printf '{"id": %d, "text": "line %d"}\n' "$i" "$i"; done > data.jsonl
head -n 100 data.jsonl > debug.jsonl
printf 'INFO start\nERROR out of memory\nINFO end\n' > train.log
python -m cProfile -o prof.out train.py > /dev/null
git init -q && git add -A && git commit -q -m fixture
"""
RUN_PROGRAM = "PYTHONPATH=src python my-program.py 2>&1"
PYTHON = SheetFixture(
    setup=PYTHON_SETUP,
    env={"PYTHONPATH": "lib"},
    checks={
        'print(f"{a*b=}': Check(output=r"a\*b=12, a=3, b/a=1\.333"),
        "{name = !r}": Check(output="name = 't5-small'"),
        "-X importtime": Check(output=r"\| torch"),
        "faulthandler.register": Check(output="Current thread|Thread 0x"),
        "dump_traceback_later": Check(output="training"),
        "PYTHONPATH=$(pwd)/src python my-program.py": Check(output="2 .*/src/mypkg/model.py"),
        "PYTHONPATH=$(pwd) python my-program.py": Check(
            before="mv src/mypkg .", output="2 .*/work/mypkg"
        ),
        "${PYTHONPATH:+": Check(output="2 .*/src/mypkg/model.py"),
        '"\\n".join(sys.path))\'': Check(output="^/.*/work/src$"),
        "importlib.import_module": Check(output="lib/transformers/__init__.py 0.0-stand-in"),
        "find_spec": Check(output="lib/numpy/__init__.py"),
        "python -v -c": Check(output="transformers/__init__"),
        "raise SystemExit": Check(
            after=f"{RUN_PROGRAM} | grep -q 'qq: .*/src/mypkg/model.py runs'"
        ),
        "a\\        die": Check(after=f"{RUN_PROGRAM} | grep -q \"NameError: name 'die'\""),
        "git checkout -- src/mypkg/model.py": Check(
            before="echo broken >> src/mypkg/model.py", after="git diff --quiet"
        ),
        "inspect.getsourcefile": Check(output=r"json/__init__\.py \d+"),
        "inspect.getsource(": Check(output="def dumps"),
        "importlib.metadata": Check(output=r"^\d+\.\d+"),
        "sys.executable, sys.version": Check(output="/bin/python"),
        "json.load(open(sys.argv[1])); print(sorted(d))": Check(output=r"\['lr', 'model'\]"),
        "echo -e 'import sys": Check(output="FOO\nBAR"),
        "$'import sys": Check(output="FOO\nBAR"),
        "exec('for a": Check(output="3 foo\n6 barbaz"),
        '"ERROR" in l': Check(output="^ERROR out of memory$"),
        '"even" if': Check(output="^odd$"),
        "| python - 3": Check(output="0 0\n1 1\n2 4"),
        "logging.basicConfig": Check(
            output="demo INFO hello", after="grep -q 'demo INFO hello' debug.log"
        ),
        "os.environ.items()": Check(output="PYTHONPATH lib"),
        "python -I -c 'import sys; print(\"\\n\".join(sys.path))'": Check(
            output=r"\A(?![\s\S]*^lib$)[\s\S]*site-packages"  # PYTHONPATH's lib/ is left out
        ),
        "python -u train.py": Check(after="grep -q training train.log"),
        "PYTHONUNBUFFERED=1": Check(after="grep -q training train.log"),
        "cProfile -s cumtime": Check(output="cumtime"),
        "cProfile -o prof.out": Check(after="test -s prof.out"),
        "pstats.Stats": Check(output="tottime"),
        "python -m timeit": Check(output="loops?, best of"),
        "python -m trace": Check(output="train.py"),
        "tracemalloc": Check(output="size="),
        "/usr/bin/time -v": Check(output=r"Maximum resident set size \(kbytes\): \d+"),
        "py_compile": Check(),
        "__pycache__ -prune": Check(
            before="python -c 'import compileall; compileall.compile_dir(\"src\", quiet=1)'",
            after='test -z "$(find . -name __pycache__)"',
        ),
        "python -m json.tool": Check(output='"lr": 0.001'),
        "pprint.pprint": Check(output=r"'layers': \{\.\.\.\}"),
        "head -n 100 data.jsonl": Check(after="test $(wc -l < debug.jsonl) = 100"),
        "json.dumps(json.loads": Check(output='"id": 1'),
    },
)
FIXTURES["python"] = PYTHON


# -- pytest ----------------------------------------------------------------------------------------
PYTEST_SETUP = r"""
mkdir -p tests/integration src/mypkg
printf '[pytest]\nmarkers =\n    slow: slow\n    gpu: needs a GPU\npythonpath = src\n' > pytest.ini
printf "'''The package.'''\n\n\ndef double(x):\n    '''\n    >>> double(2)\n    4\n    '''\n    return 2 * x\n" > src/mypkg/__init__.py
cat > tests/conftest.py <<'PY'
import pytest


@pytest.fixture
def checkpoint(tmp_path):
    '''A checkpoint file to resume from.'''
    path = tmp_path / "ckpt"
    path.write_text("step=3")
    return path
PY
cat > tests/test_modeling.py <<'PY'
import pytest


class TestLlama:
    def test_forward(self):
        assert 1 + 1 == 2


@pytest.mark.parametrize("dtype, n", [("fp16", 2), ("fp32", 4)])
def test_dtype(dtype, n):
    assert n > 0
PY
cat > tests/test_tokenization.py <<'PY'
import mypkg


class TestTokenizer:
    def test_pad(self):
        assert mypkg.double(1) == 2


def test_padding():
    assert [1] + [0] == [1, 0]


def test_generate():
    print("generated text")
PY
cat > tests/test_trainer.py <<'PY'
import logging

import pytest


def test_resume(checkpoint):
    logging.getLogger("trainer").debug("resuming from %s", checkpoint)
    assert checkpoint.read_text() == "step=3"


@pytest.mark.slow
def test_big_model():
    assert True


def test_flaky():
    assert True


@pytest.mark.xfail(reason="known bug")
def test_known_bug():
    assert False
PY
printf 'def test_integration():\n    pass\n' > tests/integration/test_cluster.py
"""
PYTEST = SheetFixture(
    setup=PYTEST_SETUP,
    literals={"seq 50": "seq 2"},
    checks={
        "pytest -k 'padding and not slow'": Check(output="1 passed, 10 deselected"),
        "TestTokenizer or test_generate": Check(output="2 passed"),
        "test_modeling.py::TestLlama::test_forward": Check(output="1 passed"),
        "test_dtype[fp16-2]": Check(output="1 passed"),
        "--lf --lfnf=none": Check(status=5, output="deselected"),
        "--collect-only -q -k padding": Check(output="test_tokenization.py::test_padding"),
        "| uniq -c |": Check(output=r"4 tests/test_trainer.py"),
        "pytest -rA": Check(output="PASSED tests/test_modeling.py::TestLlama::test_forward"),
        "pytest -rs -v": Check(output="PASSED"),
        "--trace tests/test_trainer.py::test_resume": Check(stdin="c\n", output=r"\(Pdb\)"),
        "--durations=0 -vv": Check(output="slowest durations"),
        "pytest -s -k test_generate": Check(output="generated text"),
        "--capture=tee-sys": Check(output="generated text"),
        "-m 'not slow and not gpu'": Check(output="1 deselected"),
        "pytest --markers": Check(output="@pytest.mark.gpu: needs a GPU"),
        "--log-cli-level=DEBUG": Check(output="DEBUG .*resuming from"),
        "--fixtures-per-test": Check(output="checkpoint -- "),
        "--setup-show": Check(output="SETUP +F checkpoint"),
        "pytest --fixtures tests/": Check(output="A checkpoint file to resume from"),
        "> pytest.ini": Check(  # a stray failing test outside tests/, a deprecation inside
            before="mkdir -p scratch && echo 'def test_stray(): assert 0' > scratch/test_stray.py"
            " && printf 'import warnings\\n\\ndef test_old():\\n    warnings.warn(\"old\", DeprecationWarning)\\n'"
            " > tests/test_warns.py",
            after="pytest -q -o pythonpath=src > out.txt; grep -q '11 passed' out.txt"
            " && ! grep -qE '[0-9]+ failed|DeprecationWarning' out.txt",
        ),
        "python - tests/conftest.py": Check(
            after="python -m py_compile tests/conftest.py && pytest -q -o pythonpath= tests/test_tokenization.py | grep -q '3 passed'",
            settings=(  # issue 28.1: sed '1i' failed, inserted nothing, or broke the file
                "rm tests/conftest.py",
                ": > tests/conftest.py",
                "sed -i '1i from __future__ import annotations' tests/conftest.py",
                'sed -i \'1i from __future__ import annotations\' tests/conftest.py && sed -i \'1i """Fixtures."""\' tests/conftest.py',
            ),
        ),
        "pytest --collect-only | head -6": Check(output="rootdir: "),
        "--timeout=300": Check(env={"PYTEST_PLUGINS": "pytest_timeout"}, output="timeout: 300"),
        "for i in $(seq 50)": Check(output="1 passed"),
        "--deselect tests/test_trainer.py::test_big_model": Check(output="1 deselected"),
        "--ignore=tests/integration": Check(output="9 passed, 1 xfailed"),
        "--runxfail": Check(status=1, output="1 failed"),
        "--cache-show": Check(before="pytest -q > /dev/null", output="cache/"),
        "--doctest-modules": Check(output="1 passed"),
        "--junit-xml=report.xml": Check(after="grep -q '<testsuite' report.xml"),
    },
)
FIXTURES["pytest"] = PYTEST


# -- pdb -------------------------------------------------------------------------------------------
# program.py is what the [pdb] entries debug: they are typed once it stopped at STOP, in train()'s
# loop, where the program has a `k` of its own (an alias must leave it as it was).
PDB_PROGRAM = """\
import json
import transformers.trainer


class Tensor:
    shape = (2, 3)
    dtype = "float32"
    device = "cpu"


class Loss:
    def __init__(self, value):
        self.value = value

    def item(self):
        return self.value

    def isnan(self):
        return self.value != self.value


class Model:
    def forward(self, x):
        return x

    def __call__(self, x):
        return self.forward(x)


def train(config):
    model = Model()
    k = "qq-own-k"
    batch = {"input_ids": Tensor(), "labels": Tensor()}
    x = Tensor()
    loss = Loss(0.5)
    for step in range(3):
        out = model(x)
        loss = Loss(loss.item() / 2)
    print("k at the end:", k)
    return loss.item()


train({"lr": 1e-3})
"""
STOP = PDB_PROGRAM.split("\n").index("        out = model(x)") + 1
PDB_SETUP = f"""
cat > program.py <<'PY'
{PDB_PROGRAM}PY
mkdir -p src lib/transformers/cli lib/mypkg tests bin
for i in $(seq 100); do echo "x$i = $i"; done > src/model.py
: > lib/transformers/__init__.py
printf 'class Trainer:\\n    def training_step(self):\\n        return 1\\n' > lib/transformers/trainer.py
: > lib/transformers/cli/__init__.py
: > lib/mypkg/__init__.py
printf 'def main():\\n    raise RuntimeError("cli failed")\\n' | tee lib/transformers/cli/transformers.py > lib/mypkg/train.py
echo 'main()' >> lib/mypkg/train.py
{{ printf '#!/usr/bin/env python\\n# -*- coding: utf-8 -*-\\nimport re\\nimport sys\\n'
  printf 'from transformers.cli.transformers import main\\n'
  printf 'if __name__ == "__main__":\\n    sys.argv[0] = re.sub(r"(-script\\\\.pyw|\\\\.exe)?$", "", sys.argv[0])\\n'
  printf '    sys.exit(main())\\n'; }} > bin/transformers
chmod +x bin/transformers
printf 'import sys\\n\\nbreakpoint()\\nif "--lr" in sys.argv:\\n    raise ValueError("lr is not a float")\\nprint("trained")\\n' > train.py
printf 'def test_resume():\\n    assert 1\\n\\n\\ndef test_fails():\\n    assert 1 + 1 == 3\\n' > tests/test_trainer.py
"""
TRANSFORMERS_4 = (
    "mkdir lib/transformers/commands && : > lib/transformers/commands/__init__.py"
    " && mv lib/transformers/cli/transformers.py lib/transformers/commands/transformers_cli.py"
    " && rm -r lib/transformers/cli && sed -i 's/cli.transformers/commands.transformers_cli/' bin/transformers"
)
# [python] entries are pasted at ENTRY: a crash was just caught (as python -i leaves it for pm()).
PDB_PYTHON = """\
import os
import sys


class Loss:
    def isnan(self):
        return False


step = 1000
loss = Loss()


def train():
    raise ValueError("bad batch")


try:
    train()
except ValueError:
    sys.last_type, sys.last_value, sys.last_traceback = sys.exc_info()
# ENTRY
if os.environ.get("QQ_RAISE"):
    train()
print("qq: the end")
"""
STOPPED = Check(stdin="c\n", output=r"\(Pdb\)(.|\n)*qq: the end")
AT_THE_END = f"printf 'b program.py:{STOP}\\nc\\nnl\\npd batch\\np k\\nc\\nc\\nc\\n' | python -m pdb program.py"
# README: Enter after nl repeats l alone: the listing goes on from where nl's ended (here the
# file's end), no step
ENTER_AFTER_NL = f"""printf 'b program.py:{STOP}\\nc\\nnl\\n\\nq\\n' | python -m pdb program.py > nl.txt 2>&1; python - <<'PY'
import re
parts = open("nl.txt").read().split("(Pdb) ")
listed, again = (re.findall(r"^ *(\\d+) ", part, re.M) for part in parts[3:5])
assert "\\n> " not in "\\n" + parts[4], parts  # n would have stepped and said where
assert parts[4].startswith("[EOF]") or int(again[0]) == int(listed[-1]) + 1, parts
PY"""
# pd where it broke (issue 28.1): keys of two types, a call with a space in it, a long value
PD_PROBE = f"""printf '%s\\n' 'b program.py:{STOP}' c 'pd {{1: 2, "b": 3}}' 'pd dict(a=1, b=2)' 'pd {{"long": "x" * 200}}' q | python -m pdb program.py > pd.txt 2>&1; ! grep -q '[*][*][*]' pd.txt && grep -q '^(Pdb) 1  *= 2$' pd.txt && grep -q '^b  *= 3$' pd.txt && grep -q '^(Pdb) a  *= 1$' pd.txt && grep -q "= 'x*…$" pd.txt"""
PDB = SheetFixture(
    setup=PDB_SETUP,
    env={"PYTHONPATH": "lib"},
    program=PDB_PYTHON,
    pdb_before=f"b program.py:{STOP}\nc\n",
    literals={"j 57": f"j {STOP + 1}", "unt 120": f"unt {STOP + 3}"},
    checks={
        "breakpoint()": STOPPED,
        "if step == 1000 or loss.isnan(): breakpoint()": STOPPED,
        "import pdb; pdb.set_trace()": STOPPED,
        "PYTHONBREAKPOINT=0 python train.py": Check(output="^trained$"),
        "python -m pdb -c continue train.py --lr 1e-3": Check(
            stdin="q\n",
            env={"PYTHONBREAKPOINT": "0"},
            output="Uncaught exception. Entering post mortem debugging(.|\n)*lr is not a float",
        ),
        # transformers 5's layout (cli/transformers.py, pip's launcher on PATH); the setting is
        # 4.x's, where transformers.commands.transformers_cli was the module (issue 28.1)
        '"$(command -v transformers)" env': Check(
            before='export PATH="$PWD/bin:$PATH"',
            stdin="q\n",
            output="Uncaught exception(.|\n)*cli failed",
            settings=(TRANSFORMERS_4,),
        ),
        "-m mypkg.train --lr": Check(stdin="q\n", output="Uncaught exception(.|\n)*cli failed"),
        "python -m pdb train.py --lr 1e-3": Check(stdin="q\n", output=r"train\.py\(1\)<module>"),
        "import pdb; pdb.pm()": Check(stdin="p sys.last_value\nc\n", output="bad batch"),
        "pdb.post_mortem()": Check(
            stdin="q\n", status=1, output=r"\(Pdb\)(.|\n)*ValueError: bad batch"
        ),
        "sys.excepthook": Check(
            env={"QQ_RAISE": "1"}, stdin="q\n", status=1, output=r"bad batch(.|\n)*\(Pdb\)"
        ),
        "pytest -x --pdb tests/test_trainer.py": Check(
            stdin="q\n", status=2, output=r"assert 1 \+ 1 == 3(.|\n)*\(Pdb\)"
        ),
        "pytest --trace": Check(stdin="c\n", output=r"\(Pdb\)(.|\n)*1 passed"),
        "n": Check(output=rf"program\.py\({STOP + 1}\)train"),
        "s": Check(output=r"--Call--(.|\n)*__call__"),
        "r": Check(before="cl 1", output="--Return--"),
        "c": Check(
            output=f"Breakpoint 1 at .*program.py:{STOP}(.|\n)*program.py\\({STOP}\\)train\\(\\)"
        ),
        "unt": Check(),
        "unt 120": Check(before="cl 1", output=rf"program\.py\({STOP + 3}\)train"),
        "j 57": Check(output=rf"program\.py\({STOP + 1}\)train"),
        "w": Check(output=rf"> .*program\.py\({STOP}\)train"),
        "u": Check(output=r"program\.py\(\d+\)<module>"),
        "d": Check(before="u", output=rf"program\.py\({STOP}\)train"),
        "u 3": Check(),
        "l 40, 60": Check(output=r"\d+ +\ttrain\(\{"),
        "p x.shape, x.dtype": Check(output=r"\(\(2, 3\), 'float32'\)"),
        "pp batch.keys()": Check(output="dict_keys"),
        "a": Check(output=r"config = \{'lr': 0\.001\}"),
        "whatis model": Check(output="Model"),
        "p x.shape;; p x.dtype;; p x.device": Check(output="'cpu'"),
        "display loss.item()": Check(stdin="n\nn\n", output=r"display loss\.item\(\): 0\.25"),
        "!n = 0": Check(stdin="p n\n", output=r"\(Pdb\) 0\n"),
        "b transformers.trainer.Trainer.training_step": Check(
            output=r"Breakpoint 2 at .*trainer\.py:2"
        ),
        "b src/model.py:42": Check(output=r"Breakpoint 2 at .*src/model\.py:42"),
        "tbreak src/model.py:88": Check(output=r"Breakpoint 2 at .*src/model\.py:88"),
        "b src/model.py:42, step == 100": Check(output=r"Breakpoint 2 at .*src/model\.py:42"),
        "condition 1 loss.isnan()": Check(stdin="b\n", output=r"stop only if loss\.isnan\(\)"),
        "ignore 1 99": Check(output="Will ignore next 99 crossings of breakpoint 1"),
        "disable 1": Check(output="Disabled breakpoint 1"),
        "enable 1": Check(output="Enabled breakpoint 1"),
        "cl 1": Check(output="Deleted breakpoint 1"),
        "commands 1\nsilent": Check(
            stdin="c\n", output=r"\(1, 0\.25\)\n\(2, 0\.125\)\nk at the end"
        ),
        "commands 1\np x.shape": Check(stdin="c\n", output=r"\(2, 3\)\n> .*program\.py"),
        "debug model(x)": Check(
            stdin="c\n", output=r"ENTERING RECURSIVE DEBUGGER(.|\n)*LEAVING RECURSIVE DEBUGGER"
        ),
        "source model.forward": Check(output="def forward"),
        "retval": Check(before="cl 1\nr", output=r"\(Pdb\) 0\.0625\n"),
        "restart": Check(output="Restarting .*program.py"),
        "cat >> ~/.pdbrc": Check(
            after=f"{AT_THE_END} > out.txt 2>&1; grep -q 'input_ids *= <' out.txt && grep -q \"'qq-own-k'$\" out.txt && grep -q 'k at the end: qq-own-k$' out.txt && {PD_PROBE} && {ENTER_AFTER_NL}"
        ),
        "alias sh pp": Check(stdin="sh batch\n", output=r"'input_ids': \(\(2, 3\), 'float32'\)"),
        "alias loc pp": Check(stdin="loc\n", output="'k': 'qq-own-k'"),
        "sys.stdin = open": STOPPED,
    },
)
FIXTURES["pdb"] = PDB


# -- bash ------------------------------------------------------------------------------------------
BASH_SETUP = r"""
mkdir -p experiment1 experiment2 src/pkg tests
printf 'import sys\nprint(open(sys.argv[2]).read().strip(), "from", sys.argv[2])\n' \
    | tee experiment1/test.py > experiment2/test.py
echo "name: exp1" > experiment1/config.yaml
echo "name: exp2" > experiment2/config.yaml
ln -s experiment1 experiment
printf '#!/bin/bash\nmkdir -p data\necho launched\n' > launch.sh && chmod +x launch.sh
printf 'import sys\nprint("training", *sys.argv[1:])\n' > train.py
printf 'x = 1\n' > src/pkg/mod.py
echo "lr: 0.1" > config.yaml
cat > tests/test_flaky.py <<'PY'
import pathlib


def test_flaky():
    runs = pathlib.Path("runs.txt")
    runs.write_text(runs.read_text() + "x" if runs.exists() else "x")
    assert len(runs.read_text()) < 3  # fails on the third run
PY
"""
LSZ = 'lsz() { ls -lhS "${@-.}" | head -20; }'
BASH = SheetFixture(
    setup=BASH_SETUP,
    env={"PYTHONPATH": "src"},
    checks={
        "bind -q beginning-of-line": Check(output=r'invoked via "\\C-a"'),
        "bind -P | less": Check(output="beginning-of-line can be found on"),
        "rm -rf data; ./launch.sh": Check(
            before="mkdir -p data && touch data/stale",
            output="launched",
            after="test ! -e data/stale",
        ),
        "rm -rf data && echo start": Check(output="start\nlaunched"),
        'echo "failed with exit code $?"': Check(),
        "EXPERIMENT=exp1 python train.py": Check(output="training"),
        "ln -sfn experiment2 experiment": Check(
            output="name: exp2 from experiment/config.yaml",
            after="test $(readlink experiment) = experiment2 && test ! -e experiment1/experiment2",
        ),
        "readlink experiment": Check(output="^experiment1$"),
        "lsz() { ls -lhS": Check(),
        '"${OUT_DIR:-/tmp/out}"': Check(output="^/tmp/out$"),
        ': "${MODEL:?set MODEL first}"': Check(status=127, output="MODEL: set MODEL first"),
        '"${f%.bin}.safetensors"': Check(
            output="^ckpt/pytorch_model.safetensors pytorch_model.bin ckpt/pytorch-model.bin$"
        ),
        "type lsz cd python": Check(
            before=LSZ, output="lsz is a function(.|\n)*cd is a shell builtin(.|\n)*python is /"
        ),
        "type -a python": Check(output="python is /"),
        "declare -F lsz": Check(before=LSZ, output=r"^lsz \d+ "),
        "declare -f lsz": Check(before=LSZ, output="ls -lhS"),
        "unalias pyt": Check(before="alias pyt=pytest"),
        "PS4='+ ${BASH_SOURCE}": Check(),
        "bash -x ./launch.sh": Check(output=r"\+ mkdir -p data"),
        "$BASH_COMMAND": Check(),
        '"${PIPESTATUS[@]}"': Check(output="^0 0$"),
        "python train.py > train.log 2>&1": Check(after="grep -q training train.log"),
        "timeout -s INT 600": Check(output="training"),
        "failed after $n passes": Check(output="failed after 2 passes"),
        "for seed in 1 2 3": Check(after="grep -q 'seed 3' log-3.txt"),
        "nohup python train.py > train.log 2>&1 & echo $! > train.pid": Check(
            after="test -s train.pid"
        ),
        "a.log & python train.py > b.log & wait": Check(
            after="grep -q training a.log && grep -q training b.log"
        ),
        "cp config.yaml{,.bak}": Check(after="cmp config.yaml config.yaml.bak"),
        "diff config.yaml{.bak,}": Check(before="cp config.yaml config.yaml.bak"),
        "cd -": Check(before="cd src && cd ..", output="/work/src$"),
        "declare -p PYTHONPATH": Check(output='declare -x PYTHONPATH="src"'),
        "shopt -s globstar": Check(output="src/pkg/mod.py"),
        "time python -c": Check(output=r"real\s"),
    },
)
FIXTURES["bash"] = BASH


# -- tar -------------------------------------------------------------------------------------------
TAR_SETUP = r"""
mkdir -p dataset/train ckpt project/.git project/src/__pycache__ dest
echo '{"a": 1}' > dataset/train/config.json
echo 'rows' > dataset/train/data.csv
echo 'weights' > ckpt/model.pt
echo '{"lr": 1}' > ckpt/config.json
echo 'code' > project/src/x.py && echo 'cache' > project/src/__pycache__/x.pyc
echo 'big' > project/model.pt && echo 'vcs' > project/.git/HEAD
tar -czf dataset.tar.gz dataset
tar -cJf dataset.tar.xz dataset
tar --zstd -cf dataset.tar.zst dataset
tar -cf plain.tar dataset
echo 'new' > notes.txt
git init -q repo && echo tracked > repo/a.txt && echo secret > repo/.env \
    && echo .env > repo/.gitignore && git -C repo add a.txt .gitignore && git -C repo commit -q -m x
"""
LISTED = "tar -tzf out.tgz"
TAR = SheetFixture(
    setup=TAR_SETUP,
    values={
        "archive.tar.gz": "dataset.tar.gz",
        "archive.tar.xz": "dataset.tar.xz",
        "archive.tar.zst": "dataset.tar.zst",
        "archive.tar": "plain.tar",
        "dest": "dest",
        "dir": "ckpt",
        "out.tgz": "out.tgz",
        "path/inside/archive": "dataset/train/data.csv",
        "path/inside/config.json": "dataset/train/config.json",
        "project": "project",
        "file": "notes.txt",
        "host": "node01",
    },
    checks={
        "tar -tvf": Check(output="dataset/train/config.json"),
        "tar -xzf <archive.tar.gz>": Check(
            before="rm -rf dataset", after="test -f dataset/train/data.csv"
        ),
        "tar -xzf <archive.tar.gz> -C <dest>": Check(after="test -f dest/dataset/train/data.csv"),
        "tar -xf <archive.tar.xz>": Check(
            before="rm -rf dataset", after="test -f dataset/train/data.csv"
        ),
        "--zstd -xf": Check(before="rm -rf dataset", after="test -f dataset/train/data.csv"),
        "<path/inside/archive>": Check(
            before="rm -rf dataset",
            after="test -f dataset/train/data.csv && test ! -e dataset/train/config.json",
        ),
        "--wildcards '*.json'": Check(
            before="rm -rf dataset",
            after="test -f dataset/train/config.json && test ! -e dataset/train/data.csv",
        ),
        "--strip-components=1": Check(after="test -f train/config.json"),
        "tar -xzOf": Check(output='^\\{"a": 1\\}$'),
        "tar -czf <dir>.tgz <dir>": Check(after="tar -tzf ckpt.tgz | grep -q '^ckpt/model.pt$'"),
        "zstd -T0": Check(after="tar --zstd -tf ckpt.tar.zst | grep -q '^ckpt/model.pt$'"),
        "-C <dir> .": Check(after=f"{LISTED} | grep -q '^./model.pt$'"),
        "--exclude-vcs": Check(
            after=f"{LISTED} > l && grep -q src/x.py l && ! grep -qE '\\.git|__pycache__|\\.pt$' l"
        ),
        "git ls-files -z": Check(
            before="cd repo",
            after=f"cd repo && {LISTED} > l && grep -q '^a.txt$' l && ! grep -q .env l",
        ),
        "tar -rf <archive.tar>": Check(after="tar -tf plain.tar | grep -q '^notes.txt$'"),
        "tar -dzf <archive": Check(
            before="echo changed >> dataset/train/data.csv",
            status=1,
            output="data.csv: (Mod time|Size) differs",
        ),
        "gzip -t <archive.tar.gz>": Check(output="^ok$"),
    },
)
FIXTURES["tar"] = TAR


# -- strace ----------------------------------------------------------------------------------------
# The <pid> entries attach to a Python process the check's `before` starts; it ends by itself.
STRACE_SETUP = r"""
mkdir -p lib/torch
printf '__version__ = "0.0-stand-in"\n' > lib/torch/__init__.py
printf 'import os, sys\nprint("training", flush=True)\nopen("config.json").close()\nif os.environ.get("QQ_WRITES"):\n    [print(i, flush=True) for i in range(150)]\n' > train.py
printf 'with open("/dev/full", "w") as out:\n    out.write("checkpoint")\n' > save_full.py
printf '#!/bin/bash\necho launching\npython -c "print(1)"\n' > launch.sh
echo '{}' > config.json
"""
TRACED = "python -c 'import time, sys; time.sleep(0.4); sys.stdout.write(\"qq-wrote\")' & QQPID=$!"
ATTACHED = Check(before=TRACED, traces=True)
STRACE = SheetFixture(
    setup=STRACE_SETUP,
    env={"PYTHONPATH": "lib"},
    values={"pid": "$QQPID"},
    literals={"/tmp/trace": "trace", "/tmp/exec.log": "exec.log"},
    checks={
        "strace python -c 'import torch'": Check(output=r"openat\(.*lib/torch/__init__\.py"),
        "strace -f python train.py": Check(output=r"^training$"),
        "strace -f -o /tmp/trace.log python train.py": Check(after="grep -q execve trace.log"),
        "strace -ff -o /tmp/trace": Check(after="ls trace.* | grep -q 'trace\\.[0-9]'"),
        "strace -p <pid>": ATTACHED,
        "strace -f -p <pid>": ATTACHED,
        "strace -yy -f -p <pid>": ATTACHED,
        "trace=file python train.py": Check(output="config.json"),
        "-Z -e trace=%file": Check(status=1, output=r"\A(?![\s\S]*= [0-9])[\s\S]*ENOENT"),
        "grep -E '\\.so'": Check(),
        "trace=network python train.py": Check(),
        "trace=%process bash launch.sh": Check(output=r"execve\(.*python"),
        "-e trace=execve -o /tmp/exec.log": Check(after="grep -q 'print(1)' exec.log"),
        "strace -s 1000 -p <pid>": ATTACHED,
        "-e trace=write -p <pid>": Check(before=TRACED, output='write\\(1, "qq-wrote"'),
        "-tt -T -o /tmp/trace.log": Check(
            after=r"grep -qE '^[0-9]+ +[0-9:.]+ .*<[0-9.]+>$' trace.log"
        ),
        "strace -r python train.py": Check(),
        "strace -c -f python train.py": Check(output="% time +seconds"),
        "-C -S calls": Check(after="grep -q 'calls' trace.log && grep -q execve trace.log"),
        "'trace=!futex,poll,epoll_wait' -p <pid>": ATTACHED,
        "strace -f -P /etc/hosts": Check(),
        "trace=%memory -p <pid>": ATTACHED,
        "trace=%signal python train.py": Check(),
        "strace -k": Check(output=r" > .*\("),
        "--seccomp-bpf": Check(),
        "| grep ENOSPC": Check(
            before="cp save_full.py train.py",
            output=r'write\(3</dev/full>, "checkpoint", 10\)\s+= -1 ENOSPC',
        ),
        "inject=write:error=ENOSPC": Check(
            env={"QQ_WRITES": "1"},
            status=None,
            output=r"ENOSPC \(No space left on device\) \(INJECTED\)",
        ),
        "inject=openat:error=EMFILE": Check(
            status=None, output=r"EMFILE \(Too many open files\) \(INJECTED\)"
        ),
        "delay_enter=2s": Check(),
        "ptrace_scope 2>/dev/null": Check(output=r"^([0-3]|no yama here: it restricts nothing)$"),
    },
)
FIXTURES["strace"] = STRACE


# -- make ------------------------------------------------------------------------------------------
MAKEFILE = """\
CC ?= cc
CFLAGS = -O2
OBJ = build/kernel.o

all: $(OBJ)

build/kernel.o: src/kernel.cu
\t@mkdir -p build
\t@echo "$(CC) $(CFLAGS) -c $< -o $@"
\t@cp $< $@

install: all
\t@echo installed

.PHONY: all install
"""
MAKE_SETUP = f"""
mkdir -p src build/sub
echo 'kernel' > src/kernel.cu
cat > Makefile <<'MK'
{MAKEFILE}MK
printf 'install:\\n\\t@echo build-installed\\n' > build/Makefile
printf 'debug:\\n\\t@echo debug-build\\n' > debug.mk
"""
BUILT = "make -s && touch -d '1 hour ago' src/kernel.cu"
MAKE = SheetFixture(
    setup=MAKE_SETUP,
    checks={
        "make -n": Check(output=r'echo "cc -O2 -c src/kernel.cu', after="test ! -e build/kernel.o"),
        "make -n -B": Check(before=BUILT, output="kernel.o"),
        "make -B": Check(before=BUILT, output="cc -O2"),
        'make -j"$(nproc)" -O': Check(after="test -f build/kernel.o"),
        "make --trace": Check(output="update target 'build/kernel.o' due to: src/kernel.cu"),
        "make --debug=b": Check(output="Must remake target 'build/kernel.o'"),
        "grep -E 'Must remake|newer than'": Check(output="Must remake target"),
        "grep -B1 -E '^CFLAGS '": Check(output="CFLAGS = -O2"),
        "--eval='print-%": Check(output="^CFLAGS=-O2$"),
        "-f <(printf": Check(output="^CFLAGS=-O2$"),
        "make -p -f /dev/null": Check(),
        "make CFLAGS='-O0 -g' CC=clang": Check(output="clang -O0 -g -c"),
        "CFLAGS='-O0 -g' make -e": Check(output="cc -O0 -g -c"),
        "SHELL='/bin/bash -x'": Check(output=r"\+ mkdir -p build"),
        "make -s": Check(output="^cc -O2", after="test -f build/kernel.o"),
        "make -q all; echo $?": Check(output="^1$"),
        "-W src/kernel.cu": Check(before="make -s", output="kernel.o"),
        "make -k": Check(),
        "make -C build install": Check(output="build-installed"),
        "make -f debug.mk": Check(output="debug-build"),
        "make -t": Check(after="test -f build/kernel.o && ! grep -q kernel build/kernel.o"),
        "make -pRrq :": Check(output="^install$"),
        "grep -nP": Check(
            before="printf 'bad:\\n        echo spaces\\n' >> Makefile",
            output=r"^\d+:        echo spaces",
        ),
        "cat -A Makefile": Check(output=r"\^I@echo installed\$"),
    },
)
FIXTURES["make"] = MAKE


# -- dotdbg ----------------------------------------------------------------------------------------
# train.py trains at once, or with QQ_HANG=1 hangs in qq_sleeper() (a `ready` file says it is there)
DOTDBG_SETUP = r"""
cat > train.py <<'PY'
import os
import pathlib
import time


def qq_sleeper():
    pathlib.Path("ready").touch()
    time.sleep(60)


if os.environ.get("QQ_HANG"):
    qq_sleeper()
print("trained")
PY
"""
HANGING = (
    "QQ_HANG=1 python train.py & QQPID=$!; trap 'kill $QQPID 2>/dev/null' EXIT\n"
    "for _ in $(seq 600); do [ -e ready ] && break; sleep 0.1; done"
)
IN_THE_HANG = Check(before=HANGING, status=None, output=r"qq_sleeper\b.*train\.py:\d+", traces=True)
# The interpreter the venv was made from (its `python` link leads there), outside the checkout.
BASE_PYTHON = shlex.quote(os.path.realpath(sys.executable))
DOTDBG = SheetFixture(
    setup=DOTDBG_SETUP,
    values={"pid": "$QQPID"},
    literals={
        "mem-fill 2G --": "mem-fill 64M --",  # a light load on a shared machine
        # The entry says to start it from outside /tmp: its python too, which in a checkout
        # under /tmp (a CI clone) is the venv's, hidden by the tmpfs ("cannot run 'python'").
        "--tmpfs 64M -- python ": f"--tmpfs 64M -- {BASE_PYTHON} ",
    },
    checks={
        "dotdbg pyspy": IN_THE_HANG,
        "dotdbg pyspy --native": IN_THE_HANG,
        "dotdbg pyspy --tree": IN_THE_HANG,
        "dotdbg pyspy --samples 5": IN_THE_HANG,
        "dotdbg stacks 'train": IN_THE_HANG,
        "dotdbg gdb <pid>": IN_THE_HANG,
        "--once --tree": Check(before=HANGING, output="train.py", traces=True),
        "memlimit 512M": Check(status=137, output="killed"),
        "mem-fill 2G -- python train.py": Check(output="^trained$"),
        "disk-fill --tmpfs 64M": Check(output="^/tmp$"),
        "dotdbg cheat py-spy native": Check(output="py-spy dump"),
        "dotdbg aliases": Check(output="pyt "),
        "dotdbg expand": Check(output="^pytest "),
        "dotdbg status": Check(status=1, output="not installed"),
    },
)
FIXTURES["dotdbg"] = DOTDBG
