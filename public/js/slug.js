// A giveaway's title as a room name: "Spring Giveaway" → "spring-giveaway". Room names are
// route.js's rule (lowercase a–z, digits, dashes, up to 64), which people do not type, so the page
// makes one from the title and keeps the title itself for display (the room's `title` setting).

import { ROOM_NAME_MAX } from './route.js';

/**
 * The room name for `title`: accents dropped ("Ødegård" → "odegard"), every run of other
 * characters one dash, no dash at either end, cut to the longest name at a word's end where it
 * can. '' when nothing usable is left (a title in another script): the server then picks a name.
 */
export function slugify(title) {
  const folded = String(title).normalize('NFKD')
    // Letters that do not decompose into a base letter and a mark.
    .replace(/[øØ]/g, 'o').replace(/[æÆ]/g, 'ae').replace(/ß/g, 'ss').replace(/[łŁ]/g, 'l').replace(/[đĐ]/g, 'd')
    .replace(/\p{M}/gu, '')
    .toLowerCase();
  let slug = folded.replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  if (slug.length > ROOM_NAME_MAX) {
    const cut = slug.slice(0, ROOM_NAME_MAX + 1);
    const end = cut.lastIndexOf('-');
    slug = (end > 0 ? cut.slice(0, end) : cut.slice(0, ROOM_NAME_MAX)).replace(/-+$/, '');
  }
  return slug;
}
