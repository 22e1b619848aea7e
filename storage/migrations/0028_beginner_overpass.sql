-- Bloc by Bloc: the Highway Overpass is for a random city (play part D5). Until this version a table or a tournament
-- could be given city=beginner with overpass=yes, and its games silently left the Overpass out; those options are now
-- refused. Stored ones are set to what their games played (no Overpass), so that /replay, /board move:, a rematch
-- and a lobby's Start still rebuild them. (The resolved options are json.dumps text: '"overpass": true'.)
UPDATE tables SET options = REPLACE(options, '"overpass": true', '"overpass": false')
 WHERE game = 'blocbybloc' AND options LIKE '%"city": "beginner"%' AND options LIKE '%"overpass": true%';
UPDATE tournaments SET options = REPLACE(options, '"overpass": true', '"overpass": false')
 WHERE game = 'blocbybloc' AND options LIKE '%"city": "beginner"%' AND options LIKE '%"overpass": true%';
