"""momentum-planner: an MCP server that checks and stores daily-momentum-ai-plan plans.

Built on the official MCP Python SDK (``mcp`` 2.3, ``MCPServer``); every verdict comes from the
native validator ``momentum_plan`` (the project's Rust core), so this file holds no plan rules.

Catalog (the same as ``shared/spec/mcp-server.md``; every text and schema the model reads, and the
plan-id rule, is the one catalog ``mcp-catalog.json`` in this package, the bytes of
``schemas/mcp-catalog.json`` written by ``momentum-plan-codegen``: the WASI server's texts):

- tool ``get_plan_contract``: the contract a model reads before drafting a plan.
- tool ``validate_plan``: the verdict on a plan (dict or JSON text) for a request. An invalid plan
  is a normal result (``valid: false`` with paths and messages), not a tool error. Plan text is
  judged as the text sent (``size`` on its bytes, validator.md §5.2): the tools that take a plan
  or a request read their arguments as sent (:class:`SentAsIs`, not the SDK's JSON pre-parsing).
- tool ``repair_plan``: applies the safe fixes (``unsafe`` for the others too), validates again and
  returns the repaired plan, the patch, the fixes applied and offered, and the new verdict.
- tool ``get_plan_schema``: the JSON Schema of the plan a request asks for (``validation`` or
  ``strict``).
- tool ``export_calendar`` (issue 32): a valid plan as an iCalendar file (the binding's
  ``plan_to_icalendar``, the calendar crate's bytes), returned as an embedded ``text/calendar``
  resource (uri ``calendar://<requestId>.ics``, the catalog's ``calendar.uriTemplate``) after the
  text block, with ``{uri, events, warnings}`` as structured content; ``dtstamp`` absent: this
  server's clock. A plan that is not valid gets no calendar: a tool error with its verdict (the
  catalog's ``calendar.planInvalid``); the crate's other refusals (no ``startDate``, an unknown
  ``timezone``, a malformed ``dtstamp``) are tool errors in its words.
- tool ``import_commitments`` (issue 32): one week of a calendar file as the request's
  ``commitments`` and the events left out (``commitments_from_icalendar``); a file the crate cannot
  read is a tool error naming its line.
- tool ``save_plan`` (with a store only): validates again; refuses an invalid plan (a tool error beginning
  ``Plan not saved.``, one `` | <path>: <message>`` per error); stores a valid one as
  ``<requestId>.json`` (pretty JSON, the plan's own key order), atomically. If that plan id is
  already saved, the person is asked first (elicitation: one boolean ``overwrite``).
- resource template ``plan://{planId}`` (with a store only): a saved plan; ``resources/list``
  lists them all.
- prompt ``draft_plan(request_json)``: tells the model to read the contract, draft, validate,
  fix and only then save.
- the MCP Apps plan view ``ui://momentum-planner/plan-view`` (``text/html;profile=mcp-app``, the
  same bytes as the WASI server: ``bindings-wasm/www/view/plan-view.html``, shipped in this
  package as ``plan-view.html``): ``validate_plan`` and ``repair_plan`` link it
  (``_meta.ui.resourceUri``), and ``resources/read`` serves it to a client that declared the
  extension ``io.modelcontextprotocol/ui`` with that MIME type (checked per request, from the
  request's client capabilities). The SDK's public API builds ``tools/list`` without the
  request, so the link is in every client's catalog (a host without the extension ignores
  ``_meta``); the view is not listed in ``resources/list``.

Run it (``pip install "momentum-plan[mcp]"`` installs it as the ``momentum-planner`` command):

    momentum-planner                                 # stdio (what an MCP host launches)
    momentum-planner --http 8000                     # Streamable HTTP on http://127.0.0.1:8000/mcp
    momentum-planner --store ~/plans                 # the plan store (default $PLAN_STORE; neither: read-only)
    python -m momentum_plan.planner ...              # the same

Environment (the flags win): ``PLAN_STORE`` (the store directory, created at start with mode 0700
when missing; with neither it nor ``--store`` the server is read-only, as the other two: no
``save_plan``, no ``plan://`` resources, the catalog's ``readOnly`` instructions and prompt text,
and nothing is created), ``MCP_TRANSPORT`` (``stdio`` or ``streamable-http``), ``MCP_PORT`` (default 8000;
HTTP always binds 127.0.0.1 only).

Arguments that do not fit a tool's input schema are the catalog's tool error (``argumentErrors``,
:class:`CheckedTool`), the same text as the other two servers, not the SDK's pydantic dump. The
initialize result names the catalog's ``server`` (name and title) and declares ``tools``,
``resources`` and ``prompts`` as ``{}`` (no ``listChanged: false``: this server sends no
list_changed notification), as the sandboxed server does.

Where the SDK decides, this server follows it: the protocol eras (2026-07-28 per request, and the
2025-11-25 handshake), how an elicitation travels (an ``input_required`` result in 2026-07-28, an
``elicitation/create`` request before), the text of other tool errors (``Error executing tool
<name>: ...``), ``resources/list`` without pagination, and a missing resource as ``-32602``.
"""

import datetime
import json
import os
import re
import tempfile
import urllib.parse
from importlib import resources
from argparse import Namespace
from pathlib import Path
from typing import Annotated, Any, Callable, Dict, List, Literal, Optional, TypeVar, Union, cast

from mcp.server.caching import CacheHint
from mcp.server.mcpserver import (
    AcceptedElicitation,
    Context,
    DeclinedElicitation,
    Elicit,
    ElicitationResult,
    MCPServer,
    Resolve,
    UserMessage,
)
from mcp.server.mcpserver.exceptions import ResourceNotFoundError, ToolError
from mcp.server.mcpserver.tools import Tool
from mcp.server.mcpserver.utilities.func_metadata import FuncMetadata
from mcp.shared.exceptions import MCPError
from mcp_types import (
    INVALID_PARAMS,
    CallToolResult,
    EmbeddedResource,
    GetPromptResult,
    InputRequiredResult,
    Resource,
    ServerCapabilities,
    TextContent,
    TextResourceContents,
    ToolAnnotations,
)
from pydantic import BaseModel, Field, StrictBool
from typing_extensions import TypedDict

import momentum_plan
from momentum_plan import CalendarExport, Contract, Issue, Repair, Verdict
from momentum_plan._planner_cli import parse_args
from momentum_plan._stdio import run_stdio

__all__ = ["PlanStore", "PlannerServer", "build_server", "main", "parse_args", "serve"]


F = TypeVar("F", bound=Callable[..., Any])

VIEW_URI = "ui://momentum-planner/plan-view"
VIEW_MIME = "text/html;profile=mcp-app"
UI_EXTENSION = "io.modelcontextprotocol/ui"
VIEW_HTML_PATH = Path(__file__).resolve().parent / "plan-view.html"
"""The plan view: a copy of bindings-wasm/www/view/plan-view.html (written by
bindings-wasm/scripts/build-view.mjs, checked equal by tests/test_apps.py); every server serves
these bytes."""
VIEW_LINK = {"ui": {"resourceUri": VIEW_URI}}


def declares_view(context: Optional[Context[Any, Any]]) -> bool:
    """Whether the request's client declared the MCP Apps extension with the view's MIME type."""
    try:
        capabilities = context.request_context.session.client_capabilities  # type: ignore[union-attr]
    except AttributeError:
        return False
    extensions = getattr(capabilities, "extensions", None) or {}
    ui = extensions.get(UI_EXTENSION) if isinstance(extensions, dict) else None
    mime_types = ui.get("mimeTypes") if isinstance(ui, dict) else None
    return isinstance(mime_types, list) and VIEW_MIME in mime_types


CATALOG: Dict[str, Any] = json.loads(
    resources.files("momentum_plan").joinpath("mcp-catalog.json").read_text(encoding="utf-8")
)
"""The MCP catalog every shipped server serves (``mcp-catalog.json`` in this package, written by
``momentum-plan-codegen``, the same bytes as ``schemas/mcp-catalog.json``): the instructions, each
tool's title, description, annotations and schemas, the resource template, the prompt, the
plan-id rule, and the refusal and ``notSaved`` templates. Every text below comes from it."""

CATALOG_TOOLS: Dict[str, Dict[str, Any]] = {t["name"]: t for t in CATALOG["tools"]}

SAFE_ID = re.compile(CATALOG["planId"]["pattern"])
"""A plan id that is safe as a file name (the catalog's ``planId.pattern``): it is the plan's ``requestId``."""


def mode(store: Optional["PlanStore"]) -> str:
    """The catalog's variant key for a server with ``store`` (``withStore``) or without (``readOnly``)."""
    return "withStore" if store is not None else "readOnly"


def fill(template: str, **slots: str) -> str:
    """``template`` with each ``{name}`` slot of ``slots`` filled, in one pass (a value's own braces
    are never filled); other braces stay as they are."""
    return re.sub(r"\{(\w+)\}", lambda m: slots.get(m.group(1), m.group(0)), template)


def catalog_tool(name: str) -> Dict[str, Any]:
    """The registration of tool ``name`` from the catalog: name, title, description, annotations."""
    entry = CATALOG_TOOLS[name]
    hints = entry["annotations"]
    return {
        "name": name,
        "title": entry["title"],
        "description": entry["description"],
        "annotations": ToolAnnotations(
            title=hints["title"],
            read_only_hint=hints["readOnlyHint"],
            destructive_hint=hints["destructiveHint"],
            idempotent_hint=hints["idempotentHint"],
            open_world_hint=hints["openWorldHint"],
        ),
    }

PlanArg = Annotated[
    Union[Dict[str, Any], str],
    Field(description="The plan: a JSON object, or its JSON text as a string (validated as text)."),
]
RequestArg = Annotated[
    Dict[str, Any],
    Field(description="The request the plan answers, as given by the person or the app (a JSON object)."),
]
UnsafeArg = Annotated[
    # Strict: "yes", 1 or "true" are tool errors, as on the other servers, never a quiet True that
    # applies the fixes that change meaning (the input schema says boolean).
    StrictBool,
    Field(description="Also apply the fixes that change meaning (a category synonym, moving a block); default false."),
]
DtstampArg = Annotated[
    Optional[str],
    Field(description="The DTSTAMP, a UTC date-time YYYYMMDDTHHMMSSZ; absent: this server's clock."),
]
CalendarTextArg = Annotated[str, Field(description="The calendar file's text (iCalendar, RFC 5545).")]
VariantArg = Annotated[
    Literal["validation", "strict"],
    Field(description="'validation' (default: accepts every valid plan) or 'strict' (structured outputs)."),
]


class SentAsIs(FuncMetadata):
    """A tool's argument handling without the SDK's pre-parsing: ``MCPServer`` reads every string
    argument of a parameter not annotated plain ``str`` as JSON when it can
    (``FuncMetadata.pre_parse_json``), so plan text would reach the core as a ``dict``, measured
    for ``size`` after re-serialising (validator.md §5.2), and ``"[1]"`` as a list. With this the
    arguments are validated against the annotations exactly as the client sent them: plan text
    stays the string it was (``json``, ``size`` and the ``type`` verdict work on it, §5.1–§5.3) and
    an object stays an object. A value that does not fit the input schema (a plan that is an
    array, a request that is a number) never reaches this: :class:`CheckedTool` answers it first."""

    def pre_parse_json(self, data: Dict[str, Any]) -> Dict[str, Any]:
        return data


def sent_as_is(tool: Tool) -> Tool:
    """``tool`` with its arguments read as sent (:class:`SentAsIs`), and the catalog's
    ``inputSchema`` and ``outputSchema`` listed (the arguments are still checked against the
    function's annotations, which accept the same values)."""
    meta = tool.fn_metadata
    entry = CATALOG_TOOLS[tool.name]
    tool.parameters = entry["inputSchema"]
    tool.fn_metadata = SentAsIs(
        arg_model=meta.arg_model,
        output_schema=entry["outputSchema"],
        output_model=meta.output_model,
        wrap_output=meta.wrap_output,
    )
    return tool


ARGUMENT_ERRORS: Dict[str, Any] = CATALOG["argumentErrors"]
"""The tool errors for arguments that do not fit a tool's input schema (the catalog's
``argumentErrors``, the sandboxed server's texts)."""


def json_kind(value: Any) -> str:
    """The catalog's word for the JSON type of ``value`` (``"an array"``)."""
    kinds = ARGUMENT_ERRORS["kinds"]
    if value is None:
        return str(kinds["null"])
    if isinstance(value, bool):
        return str(kinds["boolean"])
    if isinstance(value, (int, float)):
        return str(kinds["number"])
    if isinstance(value, str):
        return str(kinds["string"])
    if isinstance(value, list):
        return str(kinds["array"])
    return str(kinds["object"])


CALENDAR_ARGUMENTS = ("calendar", "startDate", "timezone")
"""The arguments of ``import_commitments``, in the order they are checked (each a string)."""


def argument_error(tool: str, arguments: Dict[str, Any]) -> Optional[str]:
    """The tool error for ``arguments`` of ``tool`` that do not fit its input schema, or None when
    they fit (mcp-server.md "Catalog": the message says which argument and why). The checks and
    their order are the catalog's (``momentum-plan-codegen``'s ``argument_errors``): ``plan``,
    ``request``, ``unsafe``, ``variant``, ``dtstamp``, ``calendar``, ``startDate``,
    ``timezone``, then the names left over, in the order sent."""
    e = ARGUMENT_ERRORS
    left = dict(arguments)
    if tool == "get_plan_contract":
        if not left:
            return None
        return fill(e["noArguments"], tool=tool, unexpected=unexpected_names(list(left)))
    problems: List[str] = []
    request_texts = e["schemaRequest"] if tool == "get_plan_schema" else e["request"]
    if tool == "import_commitments":
        for name in CALENDAR_ARGUMENTS:
            if name not in left:
                problems.append(e[name]["missing"])
            elif not isinstance(left[name], str):
                problems.append(fill(e[name]["type"], kind=json_kind(left[name])))
            left.pop(name, None)
    else:
        if tool != "get_plan_schema":
            if "plan" not in left:
                problems.append(e["plan"]["missing"])
            elif not isinstance(left["plan"], (dict, str)):
                problems.append(fill(e["plan"]["type"], kind=json_kind(left["plan"])))
            left.pop("plan", None)
        if "request" not in left:
            problems.append(request_texts["missing"])
        elif not isinstance(left["request"], dict):
            problems.append(fill(request_texts["type"], kind=json_kind(left["request"])))
        left.pop("request", None)
    if tool == "repair_plan" and "unsafe" in left:
        if not isinstance(left["unsafe"], bool):
            problems.append(fill(e["unsafe"]["type"], kind=json_kind(left["unsafe"])))
        left.pop("unsafe")
    if tool == "get_plan_schema" and "variant" in left:
        variant = left.pop("variant")
        if not isinstance(variant, str):
            problems.append(fill(e["variant"]["type"], kind=json_kind(variant)))
        elif variant not in VARIANTS:
            try:
                momentum_plan.plan_schema({}, variant)  # the core's message for an unknown name
            except ValueError as err:
                problems.append(fill(e["variant"]["unknown"], error=str(err)))
    if tool == "export_calendar" and "dtstamp" in left:
        dtstamp = left.pop("dtstamp")
        if not isinstance(dtstamp, str):  # its form is the calendar crate's to judge
            problems.append(fill(e["dtstamp"]["type"], kind=json_kind(dtstamp)))
    if left:
        problems.append(fill(e["leftOver"], unexpected=unexpected_names(list(left)), accepted=e["accepted"][tool]))
    if not problems:
        return None
    return fill(e["invalid"], tool=tool, problems=e["separator"].join(problems))


def unexpected_names(names: List[str]) -> str:
    """"unexpected argument(s) `a`, `b`" for ``names`` (the catalog's ``argumentErrors.unexpected``)."""
    texts = ARGUMENT_ERRORS["unexpected"]
    return fill(texts["one"] if len(names) == 1 else texts["many"], names=", ".join(f"`{n}`" for n in names))


VARIANTS = CATALOG_TOOLS["get_plan_schema"]["inputSchema"]["properties"]["variant"]["enum"]


class CheckedTool(Tool):
    """A tool whose ``tools/call`` arguments are checked against its input schema by
    :func:`argument_error` first: arguments that do not fit are the catalog's tool error (one text
    block, ``isError: true``, no ``structuredContent``, the same bytes as the sandboxed server),
    not the SDK's pydantic dump. Arguments that fit go on to the SDK as before."""

    async def run(self, arguments: Dict[str, Any], context: Any, convert_result: bool = False) -> Any:
        problem = argument_error(self.name, arguments)
        if problem is not None:
            return CallToolResult(content=[TextContent(type="text", text=problem)], is_error=True)
        return await super().run(arguments, context, convert_result=convert_result)


class SaveResult(TypedDict):
    """What ``save_plan`` returns."""

    saved: bool
    """True when the plan was written (new, or replacing one after the person agreed)."""
    planId: str
    """The plan id: the plan's ``requestId``."""
    uri: str
    """The plan's resource URI, ``plan://<planId>``."""
    warnings: List[Issue]
    """The verdict's warnings, then, when the plan was left unsaved, one ``notSaved`` at ``$``."""


class Overwrite(BaseModel):
    """The answer to "replace the saved plan?"."""

    overwrite: bool = Field(description="Replace the plan saved under this id with the new one?")


class PlanStore:
    """Plans as ``<id>.json`` files in one directory; writes are atomic (temp file, then rename)."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def create(self) -> None:
        """Creates the store directory when it is missing, with missing parents as ``mkdir -p``
        would, the store itself with mode 0700 (private to the user, as the sandboxed server's);
        an existing directory keeps its mode. Raises ``OSError`` when it cannot be created."""
        self.root.mkdir(mode=0o700, parents=True, exist_ok=True)

    def path(self, plan_id: str) -> Optional[Path]:
        """The file of a plan id, or None when the id is not a safe file name."""
        return self.root / f"{plan_id}.json" if SAFE_ID.fullmatch(plan_id) else None

    def exists(self, plan_id: str) -> bool:
        path = self.path(plan_id)
        return path is not None and path.is_file()

    def ids(self) -> List[str]:
        """The saved plan ids, sorted by their UTF-8 bytes; other files are ignored."""
        if not self.root.is_dir():
            return []
        ids = [p.name[: -len(".json")] for p in self.root.iterdir() if p.name.endswith(".json")]
        return sorted((i for i in ids if SAFE_ID.fullmatch(i) and (self.root / f"{i}.json").is_file()), key=str.encode)

    def read(self, plan_id: str) -> Optional[str]:
        path = self.path(plan_id)
        if path is None:
            return None
        try:
            return path.read_text(encoding="utf-8")
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
            return None

    def write(self, plan_id: str, plan: Dict[str, Any], *, replace: bool) -> bool:
        """Writes the plan as pretty JSON. With ``replace=False`` an existing plan is never
        replaced (returns False). A crash never leaves a half-written plan: the text goes to a
        temporary file in the store, is flushed to disk, and is then renamed (or linked) into place."""
        path = self.path(plan_id)
        if path is None:
            raise ValueError(f"unsafe plan id {plan_id!r}")
        self.create()
        data = (json.dumps(plan, ensure_ascii=False, indent=2) + "\n").encode("utf-8")
        # The temporary name starts with "." so it is never listed as a plan.
        fd, tmp = tempfile.mkstemp(prefix=f".{plan_id}.", suffix=".tmp", dir=self.root)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            if replace:
                os.replace(tmp, path)
            else:
                try:
                    os.link(tmp, path)  # atomic, and fails when the plan exists
                except FileExistsError:
                    return False
            self._sync_dir()
            return True
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)

    def _sync_dir(self) -> None:
        try:
            fd = os.open(self.root, os.O_RDONLY)
        except OSError:
            return
        try:
            os.fsync(fd)
        except OSError:
            pass
        finally:
            os.close(fd)


class PlannerServer(MCPServer):
    """``MCPServer`` whose ``resources/list`` lists the saved plans (``plan://<id>``); ``store``
    is ``None`` for a read-only server (nothing is listed)."""

    def __init__(self, store: Optional[PlanStore], **kwargs: Any) -> None:
        super().__init__(title=CATALOG["server"]["title"], **kwargs)
        self.store = store
        low = self._lowlevel_server
        sdk_capabilities = low.get_capabilities

        def get_capabilities(*args: Any, **kw: Any) -> ServerCapabilities:
            """The SDK's capabilities without the ``false`` flags (``listChanged: false``,
            ``subscribe: false``), as the sandboxed server declares them (``{}`` each): this
            server sends no list_changed notification and takes no subscription, and says
            nothing of either; a flag the SDK sets true stays."""
            caps = sdk_capabilities(*args, **kw)
            update: Dict[str, Any] = {}
            for name in ("tools", "prompts", "resources"):
                part = getattr(caps, name)
                if part is not None:
                    falses = {k: None for k, v in part.__dict__.items() if v is False}
                    update[name] = part.model_copy(update=falses)
            return caps.model_copy(update=update)

        low.get_capabilities = get_capabilities  # type: ignore[method-assign]

    async def list_resources(self) -> List[Resource]:
        if self.store is None:
            return []
        return [
            # As the sandboxed server lists a plan: uri, name, mimeType (no title).
            Resource(uri=f"plan://{i}", name=i, mime_type=CATALOG["resourceTemplate"]["mimeType"])
            for i in self.store.ids()
        ]

    async def run_stdio_async(self) -> None:
        """As ``MCPServer.run_stdio_async``, but every request read before the end of input is
        answered before the session ends (:func:`momentum_plan._stdio.run_stdio`)."""
        await run_stdio(self)

    async def read_resource(self, uri: Any, context: Optional[Context[Any, Any]] = None) -> Any:
        """As ``MCPServer.read_resource``; the plan view only for a client that declared the extension."""
        if str(uri) == VIEW_URI and not declares_view(context):
            raise ResourceNotFoundError("Resource not found")
        return await super().read_resource(uri, context)

    async def get_prompt(
        self, name: str, arguments: Optional[Dict[str, Any]] = None, context: Optional[Context[Any, Any]] = None
    ) -> Union[GetPromptResult, InputRequiredResult]:
        """As ``MCPServer.get_prompt``, but an unknown prompt or a missing argument is the caller's
        mistake, ``-32602`` (invalid params), in both protocol eras (the SDK reports a generic
        internal error in 2026-07-28)."""
        try:
            return await super().get_prompt(name, arguments, context)
        except ValueError as e:
            raise MCPError(code=INVALID_PARAMS, message=str(e)) from e


def plan_object(plan: Union[Dict[str, Any], str]) -> Dict[str, Any]:
    """The plan as an object (a valid plan's text is one JSON object)."""
    if isinstance(plan, str):
        value = json.loads(plan)
        if not isinstance(value, dict):
            raise ToolError(CATALOG["refusals"]["planInvalid"])
        return value
    return plan


CALENDAR: Dict[str, str] = CATALOG["calendar"]
"""What ``export_calendar`` answers besides the calendar crate's own texts (the catalog's
``calendar``: the resource's uri template and MIME type, the invalid plan's tool error)."""


def compact(value: Any) -> str:
    """``value`` as compact JSON, non-ASCII raw: the bytes the other two servers write."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def tool_error(text: str) -> CallToolResult:
    """A tool error: one text block, ``isError``, no structured content (mcp-server.md "Catalog")."""
    return CallToolResult(content=[TextContent(type="text", text=text)], is_error=True)


def calendar_uri(request: Dict[str, Any]) -> str:
    """The exported calendar's uri: the catalog's ``calendar.uriTemplate`` with the request's
    ``requestId`` (else the catalog's ``unnamed``), every byte outside RFC 3986's unreserved
    characters percent-encoded (``quote`` with no safe characters: RFC 6570 simple expansion)."""
    request_id = request.get("requestId")
    name = request_id if isinstance(request_id, str) else CALENDAR["unnamed"]
    return fill(CALENDAR["uriTemplate"], requestId=urllib.parse.quote(name, safe=""))


def utc_now_stamp() -> str:
    """Now, as a UTC DTSTAMP ``YYYYMMDDTHHMMSSZ`` (the calendar crate has no clock)."""
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")


def not_saved(reason: str, uri: str) -> Issue:
    """The ``notSaved`` warning with the catalog's reason ``reason`` (a key of its ``notSaved``)."""
    return Issue(code="notSaved", path="$", message=fill(CATALOG["notSaved"][reason], uri=uri))


def client_can_elicit(ctx: Context[Any, Any]) -> bool:
    """Whether the client declared form elicitation (a bare ``elicitation: {}`` counts)."""
    caps = ctx.client_capabilities
    elicitation = caps.elicitation if caps is not None else None
    return elicitation is not None and (elicitation.form is not None or elicitation.url is None)


CANNOT_ASK = "cannot-ask"


def build_server(store_dir: Optional[Path] = None) -> PlannerServer:
    """The server, with its plan store at ``store_dir`` (default: ``$PLAN_STORE``). With neither
    (or an empty ``PLAN_STORE``) the server is read-only, as mcp-server.md "Sandbox and store"
    says: no ``save_plan`` tool, no ``plan://`` template or listed plans, the catalog's
    ``readOnly`` instructions and prompt text. Nothing is created here (:func:`serve` creates a
    missing store at start)."""
    root = store_dir if store_dir is not None else (os.environ.get("PLAN_STORE") or None)
    store = PlanStore(Path(root)) if root is not None else None
    tools: List[Tool] = []

    def tool(**registration: Any) -> Callable[[F], F]:
        """Registers a tool as ``@mcp.tool`` would, with its arguments read as sent (:class:`SentAsIs`)."""

        def register(fn: F) -> F:
            tools.append(sent_as_is(CheckedTool.from_function(fn, **registration)))
            return fn

        return register

    @tool(**catalog_tool("get_plan_contract"))
    async def get_plan_contract() -> Contract:
        return momentum_plan.get_plan_contract()

    # Validation takes microseconds, so the validating tools are `async def` (no worker thread).
    @tool(**catalog_tool("validate_plan"), meta=VIEW_LINK)
    async def validate_plan(plan: PlanArg, request: RequestArg) -> Verdict:
        return momentum_plan.validate_plan(plan, request)

    @tool(**catalog_tool("repair_plan"), meta=VIEW_LINK)
    async def repair_plan(plan: PlanArg, request: RequestArg, unsafe: UnsafeArg = False) -> Repair:
        return momentum_plan.repair_plan(plan, request, unsafe=unsafe)

    @tool(**catalog_tool("get_plan_schema"))
    async def get_plan_schema(request: RequestArg, variant: VariantArg = "validation") -> dict[str, Any]:
        # `dict[...]` (not `typing.Dict`): the SDK returns it as structured content unwrapped.
        try:
            return momentum_plan.plan_schema(request, variant)
        except ValueError as e:  # a request no plan can satisfy: the core's words, as a tool error
            raise ToolError(str(e)) from e

    @tool(**catalog_tool("export_calendar"))
    async def export_calendar(plan: PlanArg, request: RequestArg, dtstamp: DtstampArg = None) -> CallToolResult:
        try:
            export = momentum_plan.plan_to_icalendar(plan, request, dtstamp if dtstamp is not None else utc_now_stamp())
        except ValueError as e:  # no startDate, an unknown timezone, a malformed dtstamp: the crate's words
            return tool_error(str(e))
        if "text" not in export:  # a plan that is not valid: validate_plan's verdict, no calendar
            verdict = momentum_plan.validate_plan(plan, request)
            return tool_error(fill(CALENDAR["planInvalid"], verdict=compact(verdict if not verdict["valid"] else export)))
        ics = cast(CalendarExport, export)
        uri = calendar_uri(request)
        result = {"uri": uri, "events": ics["events"], "warnings": ics["warnings"]}
        calendar = TextResourceContents(uri=uri, mime_type=CALENDAR["mimeType"], text=ics["text"])
        return CallToolResult(
            content=[TextContent(type="text", text=compact(result)), EmbeddedResource(type="resource", resource=calendar)],
            structured_content=result,
        )

    @tool(**catalog_tool("import_commitments"))
    async def import_commitments(
        calendar: CalendarTextArg,
        startDate: Annotated[str, Field(description="The week's first day, YYYY-MM-DD.")],  # noqa: N803 - the catalog's name
        timezone: Annotated[str, Field(description="A tz database name, e.g. Europe/Zurich.")],
    ) -> CallToolResult:
        try:
            week = momentum_plan.commitments_from_icalendar(calendar, startDate, timezone)
        except ValueError as e:  # a file the crate cannot read (with its line), a bad date or zone
            return tool_error(str(e))
        return CallToolResult(content=[TextContent(type="text", text=compact(week))], structured_content=week)

    def ask_to_overwrite(
        plan: PlanArg, request: RequestArg, ctx: Context[Any, Any]
    ) -> Union[Elicit[Overwrite], str, None]:
        """The overwrite question, asked only for a valid plan whose id is already saved, and only
        when the client can ask the person; otherwise nothing is asked."""
        assert store is not None  # save_plan, and with it this question, exist only with a store
        if not momentum_plan.validate_plan(plan, request)["valid"]:
            return None
        try:
            plan_id = plan_object(plan).get("requestId")
        except (ToolError, ValueError):
            return None
        if not isinstance(plan_id, str) or not store.exists(plan_id):
            return None
        if not client_can_elicit(ctx):
            return CANNOT_ASK
        return Elicit(fill(CATALOG["overwriteQuestion"]["message"], id=plan_id), Overwrite)

    def save_plan(
        plan: PlanArg,
        request: RequestArg,
        answer: Annotated[ElicitationResult[Overwrite], Resolve(ask_to_overwrite)],
    ) -> SaveResult:
        assert store is not None  # registered only with a store
        verdict = momentum_plan.validate_plan(plan, request)
        if not verdict["valid"]:
            refusals = CATALOG["refusals"]
            raise ToolError(
                refusals["planInvalid"]
                + "".join(fill(refusals["planInvalidError"], path=e["path"], message=e["message"]) for e in verdict["errors"])
            )
        obj = plan_object(plan)
        plan_id = obj.get("requestId")
        if not isinstance(plan_id, str) or not SAFE_ID.fullmatch(plan_id):
            shown = json.dumps(plan_id, ensure_ascii=False, separators=(",", ":")) if "requestId" in obj else "(none)"
            raise ToolError(fill(CATALOG["refusals"]["planIdUnsafe"], id=shown))
        uri = f"plan://{plan_id}"
        result = SaveResult(saved=False, planId=plan_id, uri=uri, warnings=list(verdict["warnings"]))
        if not store.exists(plan_id):
            if store.write(plan_id, obj, replace=False):
                result["saved"] = True
            else:
                result["warnings"].append(not_saved("savedMeanwhile", uri))
            return result
        if isinstance(answer, AcceptedElicitation) and isinstance(answer.data, Overwrite):
            if answer.data.overwrite:
                store.write(plan_id, obj, replace=True)
                result["saved"] = True
                return result
            reason = "kept"
        elif isinstance(answer, AcceptedElicitation) and answer.data == CANNOT_ASK:
            reason = "noCapability"
        elif isinstance(answer, AcceptedElicitation):
            reason = "savedMeanwhile"
        elif isinstance(answer, DeclinedElicitation):
            reason = "declined"
        else:
            reason = "cancelled"
        result["warnings"].append(not_saved(reason, uri))
        return result

    if store is not None:
        tool(**catalog_tool("save_plan"))(save_plan)

    constant = CacheHint(ttl_ms=3_600_000, scope="public")  # the catalog never changes while running
    changing = CacheHint(ttl_ms=0, scope="private")  # the saved plans change with every save
    mcp = PlannerServer(
        store,
        tools=tools,
        name=CATALOG["server"]["name"],
        version=momentum_plan.__version__,
        instructions=CATALOG["instructions"][mode(store)],
        cache_hints={
            "server/discover": constant,
            "tools/list": constant,
            "prompts/list": constant,
            "resources/templates/list": constant,
            "resources/list": changing,
            "resources/read": changing,
        },
    )

    template = CATALOG["resourceTemplate"]

    def read_plan(planId: str) -> str:  # noqa: N803 - the URI template names the parameter
        text = store.read(planId) if store is not None else None
        if text is None:
            raise ResourceNotFoundError("Resource not found")
        return text

    if store is not None:
        mcp.resource(
            template["uriTemplate"],
            name=template["name"],
            title=template["title"],
            description=template["description"],
            mime_type=template["mimeType"],
        )(read_plan)

    view_html = VIEW_HTML_PATH.read_text(encoding="utf-8")

    @mcp.resource(
        VIEW_URI,
        name="plan-view",
        title="Plan view",
        description="The day view of a plan, its problems and its fixes (MCP Apps).",
        mime_type=VIEW_MIME,
        meta={"ui": {"prefersBorder": True}},
    )
    def plan_view() -> str:
        return view_html

    prompt = CATALOG["prompt"]

    argument = prompt["arguments"][0]

    @mcp.prompt(name=prompt["name"], title=prompt["title"], description=prompt["description"])
    def draft_plan(
        request_json: Annotated[str, Field(title=argument["title"], description=argument["description"])],
    ) -> List[UserMessage]:
        return [UserMessage(fill(prompt["text"][mode(store)], request_json=request_json))]

    return mcp


def main(argv: Optional[List[str]] = None) -> None:
    """``momentum-planner``: serves on stdio, or with ``--http PORT`` over Streamable HTTP (127.0.0.1)."""
    serve(parse_args(argv))


def serve(args: Namespace) -> None:
    """Serves as the parsed command line says (:func:`momentum_plan._planner_cli.parse_args`)."""
    mcp = build_server(args.store)
    if mcp.store is not None:
        try:
            mcp.store.create()  # at start, as the other two servers do: a host sees a bad --store at once
        except OSError as e:
            raise SystemExit(f"momentum-planner: cannot create the plan store {mcp.store.root}: {e}") from None
    if args.http is None:
        mcp.run()
    else:
        mcp.run("streamable-http", host="127.0.0.1", port=args.http)


if __name__ == "__main__":
    main()
