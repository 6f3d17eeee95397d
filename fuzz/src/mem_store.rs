//! A plan store in memory for the MCP targets (`mcp_lines`, `http_requests`): the same `Store`
//! trait as the directory store, no disk I/O, and every write checked to be `<safe id>.json`.

use momentum_plan_mcp::Store;
use std::collections::BTreeMap;
use std::io;

/// The store: file name → bytes.
#[derive(Default)]
pub struct MemStore(pub BTreeMap<String, Vec<u8>>);

impl Store for MemStore {
    fn file_names(&self) -> io::Result<Vec<String>> {
        Ok(self.0.keys().cloned().collect())
    }
    fn read(&self, name: &str) -> io::Result<Option<Vec<u8>>> {
        Ok(self.0.get(name).cloned())
    }
    fn exists(&self, name: &str) -> io::Result<bool> {
        Ok(self.0.contains_key(name))
    }
    fn write_atomic(&mut self, name: &str, bytes: &[u8]) -> io::Result<()> {
        assert!(
            momentum_plan_mcp::store::id_of_file_name(name).is_some(),
            "the server wrote a file that is not <safe id>.json: {name:?}"
        );
        self.0.insert(name.to_owned(), bytes.to_vec());
        Ok(())
    }
}
