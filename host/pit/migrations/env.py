# Alembic's environment for the pit's database: the connection is the one the pit hands in
# (db.migrate), so the same revisions run on SQLite and PostgreSQL alike.
from alembic import context

from tapis.host.pit.models import Base

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=Base.metadata,
                  render_as_batch=connection.dialect.name == "sqlite")  # SQLite alters by copying
with context.begin_transaction():
    context.run_migrations()
