# The pit's database, as SQLAlchemy 2 declarative models. The schema itself is made and moved
# by Alembic (migrations/versions/); these classes describe the head revision, and a test holds
# the two alike. One row per table; its deal records and its events each keyed by (table,
# sequence number): a unique key, so a record fetched twice can never be stored twice.
from sqlalchemy import Boolean, Float, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class Table(Base):
    __tablename__ = "pit_table"
    id: Mapped[str] = mapped_column(String(64), primary_key=True)  # the table's device name
    game: Mapped[str] = mapped_column(String(16))
    variant: Mapped[str] = mapped_column(String(32), default="")
    link: Mapped[str] = mapped_column(String(200), default="")  # where the pit reaches it
    state: Mapped[str] = mapped_column(String(16), default="running")  # running, locked, disabled
    connected: Mapped[bool] = mapped_column(Boolean, default=False)
    deals: Mapped[int] = mapped_column(Integer, default=0)
    record_seq: Mapped[int] = mapped_column(Integer, default=0)  # the last deal record stored
    event_seq: Mapped[int] = mapped_column(Integer, default=0)  # the last event stored
    # the pit's numbers before the table's began again (its RAM clear): the pit's = base + the table's
    record_base: Mapped[int] = mapped_column(Integer, default=0)
    event_base: Mapped[int] = mapped_column(Integer, default=0)
    first_at: Mapped[float] = mapped_column(Float, default=0.0)  # the first deal's end (epoch s)
    last_at: Mapped[float] = mapped_column(Float, default=0.0)
    actual: Mapped[int] = mapped_column(Integer, default=0)  # the house's actual win
    theo: Mapped[str] = mapped_column(String(200), default="0")  # its exact theoretical win, "n/d"
    inexact: Mapped[int] = mapped_column(Integer, default=0)  # deals with no exact theoretical figure
    # memory.py: the highest readings of the board's memory seen, and whether it went back since
    seen_generation: Mapped[int] = mapped_column(Integer, default=0)  # its meters' commit count
    seen_deals: Mapped[int] = mapped_column(Integer, default=0)  # its deals meter, at that generation
    suspect: Mapped[str] = mapped_column(Text, default="")  # why it is suspect ("": it is not)
    # hands per hour over the time the table could deal: the seconds between deals while it ran
    # (a gap in which it was locked or disabled not counted), and how many deals ended them
    dealing_s: Mapped[float] = mapped_column(Float, default=0.0)
    dealt: Mapped[int] = mapped_column(Integer, default=0)


class Seat(Base):
    __tablename__ = "pit_seat"
    table_id: Mapped[str] = mapped_column(ForeignKey("pit_table.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    deals: Mapped[int] = mapped_column(Integer, default=0)
    wagered: Mapped[int] = mapped_column(Integer, default=0)
    won: Mapped[int] = mapped_column(Integer, default=0)  # actual win (net)
    theo: Mapped[str] = mapped_column(String(200), default="")  # exact theoretical win, "n/d"; "": none exists


class Deal(Base):
    __tablename__ = "pit_deal"
    __table_args__ = (UniqueConstraint("table_id", "seq"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("pit_table.id"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    ended_at: Mapped[float] = mapped_column(Float)  # when the deal ended, at the table
    stored_at: Mapped[float] = mapped_column(Float)
    record: Mapped[str] = mapped_column(Text)  # the deal record, JSON (docs/records.md)


class Event(Base):
    __tablename__ = "pit_event"
    __table_args__ = (UniqueConstraint("table_id", "seq"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("pit_table.id"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    at: Mapped[float] = mapped_column(Float)
    kind: Mapped[str] = mapped_column(String(32))
    tilt: Mapped[bool] = mapped_column(Boolean, default=False)
    detail: Mapped[str] = mapped_column(Text, default="")
    who: Mapped[str] = mapped_column(String(64), default="")


class Meters(Base):
    """A board's own meters (METERS: its critical memory, counted over its whole life since
    its last RAM clear, not only the journal's last games), as last read; and the last deal
    the pit's sum of the deal records was checked against them at (checks.py)."""
    __tablename__ = "pit_meters"
    table_id: Mapped[str] = mapped_column(ForeignKey("pit_table.id"), primary_key=True)
    at: Mapped[float] = mapped_column(Float)  # when read
    generation: Mapped[int] = mapped_column(Integer)  # the copies' commit count
    meters: Mapped[str] = mapped_column(Text)  # tapis.meters/1 (host/memory/meters.py), JSON
    checked_seq: Mapped[int] = mapped_column(Integer, default=0)  # the records agreed up to here (0: not yet)


class Alert(Base):
    """What the pit itself found wrong with a table (not the board's events): deals compacted
    away before it fetched them (first..last), the board's meters and the records disagreeing."""
    __tablename__ = "pit_alert"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("pit_table.id"), index=True)
    at: Mapped[float] = mapped_column(Float)
    kind: Mapped[str] = mapped_column(String(32))  # "compacted", "meters"
    detail: Mapped[str] = mapped_column(Text)
    first: Mapped[int] = mapped_column(Integer, default=0)  # compacted: the deals lost, first..last
    last: Mapped[int] = mapped_column(Integer, default=0)


class Action(Base):
    """The supervisor's actions asked of the pit, refused or done: the pit's own audit."""
    __tablename__ = "pit_action"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[float] = mapped_column(Float)
    table_id: Mapped[str] = mapped_column(String(64))
    action: Mapped[str] = mapped_column(String(16))
    who: Mapped[str] = mapped_column(String(64))
    result: Mapped[str] = mapped_column(Text)


class Operator(Base):
    """A person who may use the pit: a viewer reads, a supervisor also acts on tables, an
    administrator also manages the operators (accounts.py). The password kept as its argon2id
    hash only."""
    __tablename__ = "pit_operator"
    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    role: Mapped[str] = mapped_column(String(16))  # viewer, supervisor, administrator
    hash: Mapped[str] = mapped_column(String(200))  # argon2id, PHC string
    created_at: Mapped[float] = mapped_column(Float)


class Login(Base):
    """A signed-in browser: its session cookie's SHA-256 (never the cookie) and its CSRF token."""
    __tablename__ = "pit_login"
    token: Mapped[str] = mapped_column(String(64), primary_key=True)  # sha256 of the cookie, hex
    name: Mapped[str] = mapped_column(ForeignKey("pit_operator.name", ondelete="CASCADE"), index=True)
    csrf: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[float] = mapped_column(Float)


class Refusal(Base):
    """Refused logins and credentials, counted per address and kind (not a row each)."""
    __tablename__ = "pit_refusal"
    address: Mapped[str] = mapped_column(String(64), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16), primary_key=True)  # login, credential, throttled
    count: Mapped[int] = mapped_column(Integer, default=0)
    first_at: Mapped[float] = mapped_column(Float)
    last_at: Mapped[float] = mapped_column(Float)
