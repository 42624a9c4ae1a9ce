package sqlitelog

// Migrations are the schema's migrations, for the tests that build a
// database of an earlier schema.
var Migrations = migrations
