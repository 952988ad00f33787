import type { Migration } from './index';

/**
 * A running total of the bytes each user's data records hold, for the quota check on every
 * upload (issue 21, many small files): summing the user's records, even from an index, grew
 * with their number. Triggers keep it in the same transaction as whatever adds, removes,
 * resizes or hands over a record (uploads, deletes, a group's records passing to a user), so
 * it cannot drift from the records; users without a row hold nothing. A migration that rebuilds
 * `data_files` drops these triggers and must create them again.
 */
export const m039UserDataBytes: Migration = {
  version: 39,
  name: 'user-data-bytes',
  up: `
    CREATE TABLE user_data_bytes (
      user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
      bytes INTEGER NOT NULL
    );
    INSERT INTO user_data_bytes (user_id, bytes)
      SELECT owner_user_id, SUM(size) FROM data_files WHERE owner_user_id IS NOT NULL GROUP BY owner_user_id;
    CREATE TRIGGER data_files_bytes_insert AFTER INSERT ON data_files
      WHEN NEW.owner_user_id IS NOT NULL
    BEGIN
      INSERT INTO user_data_bytes (user_id, bytes) VALUES (NEW.owner_user_id, NEW.size)
        ON CONFLICT (user_id) DO UPDATE SET bytes = bytes + excluded.bytes;
    END;
    CREATE TRIGGER data_files_bytes_delete AFTER DELETE ON data_files
      WHEN OLD.owner_user_id IS NOT NULL
    BEGIN
      UPDATE user_data_bytes SET bytes = bytes - OLD.size WHERE user_id = OLD.owner_user_id;
    END;
    CREATE TRIGGER data_files_bytes_update AFTER UPDATE OF size, owner_user_id ON data_files
    BEGIN
      UPDATE user_data_bytes SET bytes = bytes - OLD.size
        WHERE OLD.owner_user_id IS NOT NULL AND user_id = OLD.owner_user_id;
      INSERT INTO user_data_bytes (user_id, bytes) SELECT NEW.owner_user_id, NEW.size
        WHERE NEW.owner_user_id IS NOT NULL
        ON CONFLICT (user_id) DO UPDATE SET bytes = bytes + excluded.bytes;
    END;
  `,
};
