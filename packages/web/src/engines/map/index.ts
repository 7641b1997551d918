/** The members' map (Leaflet): where each member is, and the room's map section with its table, trails and zones. The room pages, /talk and /dispatch show it. */
export { MembersMap } from './MembersMap.tsx';
export { RoomMapSection } from './RoomMapSection.tsx';
