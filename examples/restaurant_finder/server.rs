//! AG-UI server (being written).
use crate::llm::Agent;
use crate::ui::Version;
pub async fn serve(_l: tokio::net::TcpListener, _a: Agent, _v: Version) -> std::io::Result<()> {
    Err(std::io::Error::other("not yet"))
}
