-- At most so many turn-clock reminders a day per player (a server setting), counted per player per day.
ALTER TABLE guild_settings ADD COLUMN reminders_per_day INTEGER NOT NULL DEFAULT 3;
ALTER TABLE players ADD COLUMN reminder_day INTEGER;
ALTER TABLE players ADD COLUMN reminders_sent INTEGER NOT NULL DEFAULT 0;
