throw new Error('not in the image');
