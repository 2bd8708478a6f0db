"""the floor: tables, seats, deal records, events, the supervisor's actions

Revision ID: 0001
Revises:
"""
import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "pit_table",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("link", sa.String(200), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("connected", sa.Boolean, nullable=False),
        sa.Column("deals", sa.Integer, nullable=False),
        sa.Column("record_seq", sa.Integer, nullable=False),
        sa.Column("event_seq", sa.Integer, nullable=False),
        sa.Column("first_at", sa.Float, nullable=False),
        sa.Column("last_at", sa.Float, nullable=False),
        sa.Column("actual", sa.Integer, nullable=False),
        sa.Column("theo", sa.String(200), nullable=False),
        sa.Column("inexact", sa.Integer, nullable=False))
    op.create_table(
        "pit_seat",
        sa.Column("table_id", sa.String(64), sa.ForeignKey("pit_table.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("deals", sa.Integer, nullable=False),
        sa.Column("wagered", sa.Integer, nullable=False),
        sa.Column("won", sa.Integer, nullable=False),
        sa.Column("theo", sa.String(200), nullable=False))
    op.create_table(
        "pit_deal",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(64), sa.ForeignKey("pit_table.id"), nullable=False, index=True),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("ended_at", sa.Float, nullable=False),
        sa.Column("stored_at", sa.Float, nullable=False),
        sa.Column("record", sa.Text, nullable=False),
        sa.UniqueConstraint("table_id", "seq"))
    op.create_table(
        "pit_event",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(64), sa.ForeignKey("pit_table.id"), nullable=False, index=True),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("tilt", sa.Boolean, nullable=False),
        sa.Column("detail", sa.Text, nullable=False),
        sa.Column("who", sa.String(64), nullable=False),
        sa.UniqueConstraint("table_id", "seq"))
    op.create_table(
        "pit_action",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("table_id", sa.String(64), nullable=False),
        sa.Column("action", sa.String(16), nullable=False),
        sa.Column("who", sa.String(64), nullable=False),
        sa.Column("result", sa.Text, nullable=False))


def downgrade():
    for name in ("pit_action", "pit_event", "pit_deal", "pit_seat", "pit_table"):
        op.drop_table(name)
