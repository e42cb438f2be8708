export function createLock( {
