"""the pit's numbers across a board's RAM clear (pit_table.record_base, event_base)

Revision ID: 0003
Revises: 0002
"""
import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("pit_table") as t:  # (batch: SQLite alters a table by copying it)
        t.add_column(sa.Column("record_base", sa.Integer, nullable=False, server_default="0"))
        t.add_column(sa.Column("event_base", sa.Integer, nullable=False, server_default="0"))


def downgrade():
    with op.batch_alter_table("pit_table") as t:
        t.drop_column("event_base")
        t.drop_column("record_base")
