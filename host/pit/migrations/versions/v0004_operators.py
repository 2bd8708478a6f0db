"""operators and their roles, signed-in browsers, refusals counted (issue 45.1, 45.2)

Revision ID: 0004
Revises: 0003
"""
import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table("pit_operator",
                    sa.Column("name", sa.String(64), primary_key=True),
                    sa.Column("role", sa.String(16), nullable=False),
                    sa.Column("hash", sa.String(200), nullable=False),
                    sa.Column("created_at", sa.Float, nullable=False))
    op.create_table("pit_login",
                    sa.Column("token", sa.String(64), primary_key=True),
                    sa.Column("name", sa.String(64), sa.ForeignKey("pit_operator.name", ondelete="CASCADE"),
                              nullable=False),
                    sa.Column("csrf", sa.String(64), nullable=False),
                    sa.Column("created_at", sa.Float, nullable=False))
    op.create_index("ix_pit_login_name", "pit_login", ["name"])
    op.create_table("pit_refusal",
                    sa.Column("address", sa.String(64), primary_key=True),
                    sa.Column("kind", sa.String(16), primary_key=True),
                    sa.Column("count", sa.Integer, nullable=False),
                    sa.Column("first_at", sa.Float, nullable=False),
                    sa.Column("last_at", sa.Float, nullable=False))


def downgrade():
    op.drop_table("pit_refusal")
    op.drop_index("ix_pit_login_name", "pit_login")
    op.drop_table("pit_login")
    op.drop_table("pit_operator")
