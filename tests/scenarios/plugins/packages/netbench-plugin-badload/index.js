// A plugin whose module cannot even be imported.
throw new Error('badload: cannot find its native module');
