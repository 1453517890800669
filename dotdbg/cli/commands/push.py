"""``dotdbg push HOST… | --nodes SET``: install for good in remote homes (dotdbg.remote.push)."""

from __future__ import annotations

from dotdbg.cli.parser import Argument, Command, Option

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dotdbg.cli.parser import Values

HOSTS = Argument("hosts", "The hosts to install on (as ssh names them).", many=True)
NODES = Option(["--nodes", "-w"], "Hosts as a node set: 'gpu[01-16]'.", metavar="HOSTS")
UNINSTALL = Option(["--uninstall"], "Remove exactly what push installed.", default=False)
STATUS = Option(["--status"], "Installed, current or drifted, per host.", default=False)
DRY_RUN = Option(["--dry-run", "-n"], "Show what would change; write nothing.", default=False)
DIFF = Option(["--diff"], "Show a unified diff of every change, per host.", default=False)
JSON = Option(["--json"], "One JSON document instead of the table (docs/remote.md).", default=False)


def push(values: Values) -> int:
    from dotdbg.errors import UsageError
    from dotdbg.fanout.ssh import expand
    from dotdbg.remote import push as pushing

    hosts = list(values["hosts"] or []) + (expand(values["nodes"]) if values["nodes"] else [])
    if not hosts:
        raise UsageError("dotdbg push needs a HOST or --nodes", "dotdbg push")
    if values["status"] and values["uninstall"]:
        raise UsageError("--status and --uninstall do not go together", "dotdbg push")
    action = (
        pushing.STATUS
        if values["status"]
        else pushing.UNINSTALL
        if values["uninstall"]
        else pushing.INSTALL
    )
    if values["json"] and values["diff"]:
        raise UsageError("--json and --diff do not go together", "dotdbg push")
    results = pushing.push(list(dict.fromkeys(hosts)), action, dry_run=values["dry_run"])
    if values["json"]:
        print(pushing.as_json(action, results, dry_run=values["dry_run"]), end="")
        return 0 if all(result.ok for result in results) else 1
    for line in pushing.table(results):
        print(line)
    if values["diff"]:
        for result in results:
            if result.diff:
                print(f"\n# {result.host}\n{result.diff}", end="")
    return 0 if all(result.ok for result in results) else 1


COMMAND = Command(
    "push",
    "Install for good on remote hosts over ssh (--status, --uninstall, --dry-run, --diff).",
    push,
    options=[NODES, UNINSTALL, STATUS, DRY_RUN, DIFF, JSON],
    arguments=[HOSTS],
    description=(
        "The install runs here, against each remote home, over one ssh connection per host\n"
        "(DOTDBG_SSH_OPTIONS adds ssh options: -F FILE, -i KEY). The hosts need sh and\n"
        "coreutils, not Python. One row per host; exit 1 when any host failed."
    ),
)
