"""hands per hour over the time a table could deal (issue 45.4)

Revision ID: 0006
Revises: 0005
"""
import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("pit_table") as t:
        t.add_column(sa.Column("dealing_s", sa.Float, nullable=False, server_default="0"))
        t.add_column(sa.Column("dealt", sa.Integer, nullable=False, server_default="0"))


def downgrade():
    with op.batch_alter_table("pit_table") as t:
        t.drop_column("dealt")
        t.drop_column("dealing_s")
