export async function claim(store, job, owner) {
  const current = await store.get(job);
  if (current) return false;
  await store.set(job, owner);
  return true;
}
