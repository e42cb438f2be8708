export async function claim(store, job, owner) {
  return store.setIfAbsent(job, owner);
}
