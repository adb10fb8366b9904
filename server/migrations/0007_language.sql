-- The language a player chose for the web page (`en`, `fr`: accounts::LANGUAGES), restored at
-- login; NULL until they choose one (the page then follows the browser's language).
ALTER TABLE users ADD COLUMN language TEXT;
