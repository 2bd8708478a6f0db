# The names of the shapes the pit's JSON API answers in (docs/schemas/tapis.pit.*, listed in
# docs/schemas.md): every answer carries its own in a "schema" key, as every --json output does.
FLOOR = "tapis.pit.floor/1"  # GET /api/floor
TABLE = "tapis.pit.table/1"  # GET /api/tables/ID
DEAL = "tapis.pit.deal/1"  # GET /api/tables/ID/deals/N
NEWS = "tapis.pit.news/1"  # each message of GET /api/stream
ACTION = "tapis.pit.action/1"  # POST /api/tables/ID/ACTION, POST /logout
ME = "tapis.pit.me/1"  # GET /api/me
ERROR = "tapis.pit.error/1"  # every 4xx and 5xx


def error(why):
    return {"schema": ERROR, "error": why}


def result(what, **more):
    """An action's answer: what the table (or the pit) said it did."""
    return dict({"schema": ACTION, "result": what}, **more)
