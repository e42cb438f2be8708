/**
 * Project memberships in the database's `members` table: one row a member,
 * `{ id: '<user>@<project>', project, user, role }`, with role 'owner' or
 * 'member'. Every project keeps at least one owner: an owner may step down to
 * member only while another owner remains.
 */

/**
 * Creates the membership helper of one worker.
 * @param {{ db: import('./memory-database.js').Database }} options
 */
export function createMemberships({ db }) {
  return {
    /**
     * Steps `user` down from owner of `project`, unless they are its last owner.
     * @param {{ project: string, user: string }} request
     * @returns {Promise<'left' | 'last-owner'>}
     */
    async stepDown({ project, user }) {
      // Serializable: the database refuses a commit whose reads changed.
      const tx = await db.begin('serializable');
      const owners = await db.select(tx, 'members', { project, role: 'owner' });
      if (owners.length < 2 || !owners.some((o) => o.user === user)) {
        await db.rollback(tx);
        return 'last-owner';
      }
      await db.update(tx, 'members', `${user}@${project}`, { role: 'member' });
      await db.commit(tx);
      return 'left';
    },
  };
}
