"""dotdbg's look for its typer app: plain help, ``-h``, and usage errors in dotdbg's two lines.

typer 0.29 shows a type tag beside every argument (``NAME <str>``, ``--top <int range>``), puts
required arguments in braces (``{NAME}``) and, with rich, reads ``[packs]`` in a help text as
markup and prints nothing. Plain mode keeps the brackets; the two methods replaced below drop
the tags and braces (tests/test_cli.py checks the help text, so a typer upgrade that moves them
shows up there).
"""

from __future__ import annotations

import typer
import typer.core

from dotdbg.errors import UsageError

CONTEXT = {"help_option_names": ["-h", "--help"]}
APP_SETTINGS = {
    "rich_markup_mode": None,
    "context_settings": CONTEXT,
    "no_args_is_help": True,
    "add_completion": False,
    "pretty_exceptions_enable": False,
}
# The commands that parse their own words (dotdbg.entry.FAST), as the app lists them.
PASS_THROUGH = {"allow_extra_args": True, "ignore_unknown_options": True, "help_option_names": []}


def _argument_usage(self: typer.core.TyperArgument) -> str:
    name = self.metavar or (self.name or "").upper()
    name = name if self.required else f"[{name}]"
    return f"{name}..." if self.nargs != 1 else name


def _no_tag(self: typer.core.TyperArgument, ctx: object) -> None:
    return None


def _option_value(self: typer.core.TyperOption, ctx: object) -> str:
    return self.metavar or (self.name or "").upper()


typer.core.TyperArgument._usage_display_name = _argument_usage  # type: ignore[method-assign]
typer.core.TyperArgument.display_type_rich = _no_tag  # type: ignore[method-assign,assignment]
typer.core.TyperOption.display_type_rich = _option_value  # type: ignore[method-assign]


def list_fast_commands(app: typer.Typer, fast: dict[str, str]) -> None:
    """Name the fast commands in ``dotdbg --help``; run directly (CliRunner), they still work."""
    from dotdbg.entry import command

    for name in fast:
        found = command(name)

        def pass_on(ctx: typer.Context, name: str = name) -> None:
            raise typer.Exit(command(name).main(list(ctx.args), f"dotdbg {name}"))

        app.command(name, help=found.summary, context_settings=PASS_THROUGH, add_help_option=False)(
            pass_on
        )


def invoke(app: typer.Typer, argv: list[str], prog: str) -> int:
    """Run the app on ``argv``; its usage errors become dotdbg's UsageError."""
    import typer.main
    from typer._click.exceptions import NoArgsIsHelpError
    from typer._click.exceptions import UsageError as ClickUsageError

    group = typer.main.get_command(app)
    try:
        with group.make_context(prog, list(argv)) as ctx:
            result = group.invoke(ctx)
    except NoArgsIsHelpError as bare:  # `dotdbg` or `dotdbg alias` alone: the help, exit 2
        bare.show()
        return 2
    except ClickUsageError as usage:
        where = usage.ctx.command_path if usage.ctx is not None else prog
        raise UsageError(_sentence(usage.format_message()), help_command=where) from None
    except typer.Exit as done:
        return done.exit_code
    except typer.Abort:
        raise KeyboardInterrupt from None
    return result if isinstance(result, int) else 0


def _sentence(message: str) -> str:
    """``Missing argument 'NAME'.`` → ``missing argument 'NAME'``, as dotdbg's errors read."""
    message = message.rstrip(".")
    return message[:1].lower() + message[1:]
