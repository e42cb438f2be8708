export async function claim(store, job, owner) {
  if (await store.get(job)) return false;
  await new Promise((r) => setTimeout(r, 10));
  if (await store.get(job)) return false;
  await store.set(job, owner);
  return true;
}
