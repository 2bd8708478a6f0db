"""the highest readings of each board's memory, and whether it went back (issue 45.3)

Revision ID: 0005
Revises: 0004
"""
import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("pit_table") as t:
        t.add_column(sa.Column("seen_generation", sa.Integer, nullable=False, server_default="0"))
        t.add_column(sa.Column("seen_deals", sa.Integer, nullable=False, server_default="0"))
        t.add_column(sa.Column("suspect", sa.Text, nullable=False, server_default=""))


def downgrade():
    with op.batch_alter_table("pit_table") as t:
        t.drop_column("suspect")
        t.drop_column("seen_deals")
        t.drop_column("seen_generation")
