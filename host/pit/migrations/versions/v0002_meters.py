"""the boards' own meters (pit_meters) and the pit's own alerts (pit_alert)

Revision ID: 0002
Revises: 0001
"""
import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "pit_meters",
        sa.Column("table_id", sa.String(64), sa.ForeignKey("pit_table.id"), primary_key=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("generation", sa.Integer, nullable=False),
        sa.Column("meters", sa.Text, nullable=False),
        sa.Column("checked_seq", sa.Integer, nullable=False))
    op.create_table(
        "pit_alert",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(64), sa.ForeignKey("pit_table.id"), nullable=False, index=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("detail", sa.Text, nullable=False),
        sa.Column("first", sa.Integer, nullable=False),
        sa.Column("last", sa.Integer, nullable=False))


def downgrade():
    op.drop_table("pit_alert")
    op.drop_table("pit_meters")
